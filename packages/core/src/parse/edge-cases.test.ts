/** One test per file in shared/data/parser-edge-cases (expectations: test/fixtures/parser-edge-cases.ts). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { expect, it } from "vitest";
import { EDGE_CASES } from "../../test/fixtures/parser-edge-cases.js";
import { SHARED_DATA } from "../../test/fixtures/shared-data.js";
import { readSkillFile } from "./read-skill-file.js";

const ROOT = join(SHARED_DATA, "parser-edge-cases");

describeWithSharedData("parser edge cases (real files)", () => {
  it("covers every case CASES.tsv lists", () => {
    const listed = readFileSync(join(ROOT, "CASES.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split("\t")[0]);
    expect(EDGE_CASES.map((c) => c.case).sort()).toEqual(listed.sort());
  });

  it.each(EDGE_CASES.map((c) => [c.case, c] as const))("%s", async (_name, edge) => {
    const path = join(ROOT, edge.case, "SKILL.md");
    const lenient = await readSkillFile(path);
    expect(lenient.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(edge.lenient);
    for (const d of lenient.diagnostics) expect(d).toMatchObject({ file: path, hint: expect.any(String) });

    const strict = await readSkillFile(path, { mode: "strict" });
    const lenientCodes = edge.lenient.map((entry) => entry.split("@")[0]);
    expect(strict.diagnostics.map((d) => d.code).sort()).toEqual(
      [...lenientCodes, ...edge.strictAdds].sort(),
    );

    if (edge.skill === undefined) {
      expect(lenient.skill).toBeUndefined();
      return;
    }
    const { bodyStartsWith, descriptionLength, ...fields } = edge.skill;
    expect(lenient.skill).toMatchObject(fields);
    if (bodyStartsWith !== undefined) expect(lenient.skill!.body.startsWith(bodyStartsWith)).toBe(true);
    if (descriptionLength !== undefined) expect(lenient.skill!.description).toHaveLength(descriptionLength);
    // Nothing unexpected leaks through: bodies never carry the frontmatter or CRs.
    expect(lenient.skill!.body.startsWith("---")).toBe(false);
    expect(lenient.skill!.body.includes("\r")).toBe(false);
  });
});
