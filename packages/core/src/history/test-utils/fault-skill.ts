/**
 * The skill the fault tests write over and over: iteration N has `# Iteration N` in its
 * body and `version: 0.0.N` (N ≥ 1) as its last frontmatter line, so the exact bytes of
 * every version are known and a torn or mixed file cannot pass for a real one.
 */
export const FAULT_SKILL = "fault-skill";

const PADDING = Array.from(
  { length: 120 },
  (_, i) => `${i + 1}. Step ${i + 1}: check the previous step's output before going on.`,
).join("\n");

function render(iteration: number, versionLine: string | undefined, tag = ""): string {
  return [
    "---",
    `name: ${FAULT_SKILL}`,
    "description: A skill rewritten in a loop while its writer is killed.",
    ...(versionLine ? [versionLine] : []),
    "---",
    "",
    `# Iteration ${iteration}${tag ? ` (${tag})` : ""}`,
    "",
    PADDING,
    `End of iteration ${iteration}.`,
    "",
  ].join("\n");
}

/** The exact file after `iteration` managed writes from iteration 0. */
export function faultSkillVersion(iteration: number): string {
  return render(iteration, iteration === 0 ? undefined : `version: 0.0.${iteration}`);
}

/** What a writer passes for the next iteration: the new body, the version line as it found it. */
export function nextFaultContent(current: string, tag = ""): string {
  const iteration = iterationOf(current);
  if (iteration === undefined) throw new Error("not a fault-skill file");
  const versionLine = /^version: .*$/m.exec(current)?.[0];
  return render(iteration + 1, versionLine, tag);
}

export function iterationOf(text: string): number | undefined {
  const match = /^# Iteration (\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}
