import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseSkill } from "../parse/parse-skill.js";
import { checkStepFiles } from "./step-files.js";
import { SAFE_REFACTOR_MD, type SkillFolder, writeWorkflowSkill } from "./test-utils/safe-refactor.js";

function parse(steps: string, extra = "") {
  return parseSkill(
    `---\nname: wf\ndescription: A workflow under test.\n${extra}steps:\n${steps}---\nbody\n`,
    {
      path: "/skills/wf/SKILL.md",
    },
  );
}
const errors = (result: ReturnType<typeof parse>) =>
  result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code}@${d.line}: ${d.message}`);

describe("the steps field", () => {
  it("reads seed 004's safe_refactor steps, its domain and step defaults", () => {
    const result = parseSkill(
      SAFE_REFACTOR_MD.replace("domain: code\n", "domain: code\nstep-timeout: 5m\nstep-retries: 1\n"),
      {
        path: "/x/safe-refactor/SKILL.md",
      },
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.skill).toMatchObject({ domain: "code", stepTimeout: 300, stepRetries: 1 });
    expect(result.skill?.steps?.map((s) => [s.id, s.input, s.output])).toEqual([
      ["analyze", ["module_path"], "analysis_report"],
      ["plan", ["analysis_report"], "refactor_plan"],
      ["execute", ["refactor_plan"], "changed_files"],
      ["verify", ["changed_files"], "verify_result"],
    ]);
  });

  it("skips the skill, with located errors, when ids repeat or an input comes from nowhere", () => {
    const result = parse(
      "  - id: a\n    input: [x]\n    output: out_a\n  - id: a\n    input: [out_b]\n    output: out_a\n  - id: b\n    input: [out_a]\n    output: out_b\n",
      "arguments: [x]\n",
    );
    expect(result.skill).toBeUndefined();
    expect(errors(result)).toEqual([
      "invalid-steps@5: step 2 (`a`): the id `a` is used by an earlier step",
      "invalid-steps@5: step 2 (`a`): `output` `out_a` is produced by an earlier step",
    ]);
    const forward = parse(
      "  - id: a\n    input: [later]\n    output: first\n  - id: b\n    input: [first]\n    output: later\n",
    );
    expect(errors(forward)).toEqual([
      "invalid-steps@4: step 1 (`a`) reads `later`, which only a later step produces",
    ]);
    // A name the file alone cannot place is left to the folder's check (a schema.json may name it).
    const unknown = parse("  - id: a\n    input: [module_path]\n    output: first\n");
    expect(errors(unknown)).toEqual([]);
  });

  it("refuses step fields it does not know, bad ids, bad numbers and `__proto__` names", () => {
    const result = parse(
      '  - id: "../etc"\n    output: __proto__\n    timeout: forever\n    retries: -1\n    verfy: typo\n',
    );
    expect(result.skill).toBeUndefined();
    const messages = errors(result).join("\n");
    expect(messages).toContain("the id must be lower-case letters");
    expect(messages).toContain("`verfy` is not a step field");
    expect(messages).toContain("`output` must be a plain name");
    expect(messages).toContain("`timeout` must be a number of seconds");
    expect(messages).toContain("`retries` must be a whole number");
    expect(errors(parse("  - just-a-string\n"))).toEqual([
      "invalid-steps@4: step 1 must be a mapping with `id`, `title`, `input`, `output`",
    ]);
  });
});

describe("step prompt files", () => {
  const folders: SkillFolder[] = [];
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((f) => f.cleanup()));
  });

  it("are all present for the fixture, and a missing one is a located error", async () => {
    const folder = await writeWorkflowSkill(SAFE_REFACTOR_MD, {
      "01-analyze": "a",
      "02-plan": "p",
      "04-verify": "v",
    });
    folders.push(folder);
    const diagnostics = checkStepFiles(folder.skill);
    expect(diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      [
        "missing-step-file",
        folder.skill.file,
        'step 3 (`execute`): steps/03-execute.md: there is no file "steps/03-execute.md" in the skill folder',
      ],
    ]);
  });

  it("check inputs against the parameters the skill really has, schema.json included", async () => {
    const md = `---
name: member-report
description: A typed workflow whose parameters are in schema.json.
steps:
  - { id: query, input: [time_range], output: rows }
  - { id: report, input: [rows, typo_name], output: report }
---
body
`;
    const folder = await writeWorkflowSkill(md, { "01-query": "q", "02-report": "r" });
    folders.push(folder);
    await writeFile(
      join(folder.dir, "schema.json"),
      JSON.stringify({
        type: "object",
        properties: { time_range: { type: "string", enum: ["last_month"] } },
      }),
    );
    expect(checkStepFiles(folder.skill).map((d) => [d.code, d.message])).toEqual([
      [
        "invalid-steps",
        "step 2 (`report`) reads `typo_name`, which no earlier step produces and the skill's parameters do not name",
      ],
    ]);
  });

  it("may not be a link to a file outside the skill folder", async () => {
    const folder = await writeWorkflowSkill(SAFE_REFACTOR_MD, {
      "01-analyze": "a",
      "02-plan": "p",
      "04-verify": "v",
    });
    folders.push(folder);
    await writeFile(join(folder.root, "secret.txt"), "the host's secret");
    await symlink(join(folder.root, "secret.txt"), join(folder.dir, "steps", "03-execute.md"));
    await mkdir(join(folder.dir, "steps", "sub"), { recursive: true });
    expect(checkStepFiles(folder.skill).map((d) => d.message)).toEqual([
      "step 3 (`execute`): steps/03-execute.md: the path leads out of the skill folder",
    ]);
  });
});

describe("the core README's workflow example", () => {
  it("is a skill that loads, with its four steps", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Workflow skills"));
    const example = /```markdown\n([\s\S]*?)```/.exec(section)![1]!;
    const result = parseSkill(example, { path: "/skills/code/safe-refactor/SKILL.md" });
    expect(result.diagnostics).toEqual([]);
    expect(result.skill?.steps?.map((s) => s.run ?? "model")).toEqual([
      "model",
      "model",
      "apply_plan",
      "tool:run_tests",
    ]);
  });
});
