/** A unified diff of a SKILL.md before and after an update ("" when they are the same). */
import { createTwoFilesPatch } from "diff";

export function skillDiff(name: string, before: string, after: string): string {
  if (before === after) return "";
  const patch = createTwoFilesPatch(
    `installed/${name}/SKILL.md`,
    `source/${name}/SKILL.md`,
    before,
    after,
    undefined,
    undefined,
    {
      context: 2,
    },
  );
  // The "Index:" and "===" header lines say nothing the two file lines do not.
  return patch
    .split("\n")
    .filter((line) => !line.startsWith("Index:") && !/^=+$/u.test(line))
    .join("\n");
}
