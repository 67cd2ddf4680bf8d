/**
 * A workflow skill in a temp project (SKILL.md with three steps, their prompts in steps/),
 * a plain skill beside it, and a shelf that runs the workflow without asking (mode "auto")
 * with a step model answering "<step>: <its input>", so the outputs show the contract. For an
 * adapter's own tests of how its framework shows a run (streamed step events, the result).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "../shelf.js";

const SKILL = `---
name: release-check
description: Check a release branch before tagging it - read the changes, list the risks, write the verdict.
triggers: [release check]
arguments: [branch]
steps:
  - { id: read, title: Read the changes, input: [branch], output: changes }
  - { id: risks, title: List the risks, input: [changes], output: risks }
  - { id: verdict, title: Verdict, input: [risks], output: verdict }
---
Check the release branch $branch in three steps.
`;

const PLAIN_SKILL = `---
name: release-notes
description: Draft release notes from the changes since the last tag.
triggers: [release notes]
---
Group the changes into features and fixes.
`;

export const WORKFLOW_STEPS = ["read", "risks", "verdict"];
export const WORKFLOW_TOOL = "skill_release-check";

export interface WorkflowFixture {
  shelf: Shelf;
  /** The steps the step model was asked to do, in order. */
  stepsRun: string[];
  cleanup(): Promise<void>;
}

export async function workflowFixture(): Promise<WorkflowFixture> {
  // Not "skillshelf-workflow-…": the folder is in the prompt, and tests assert that no
  // progress event (type "skillshelf-workflow") reached the model.
  const root = await mkdtemp(join(tmpdir(), "skillshelf-steps-fixture-"));
  const dir = join(root, ".agents", "skills", "release-check");
  await mkdir(join(dir, "steps"), { recursive: true });
  await writeFile(join(dir, "SKILL.md"), SKILL);
  for (const [index, id] of WORKFLOW_STEPS.entries()) {
    await writeFile(join(dir, "steps", `0${index + 1}-${id}.md`), `Do the ${id} step.`);
  }
  await mkdir(join(root, ".agents", "skills", "release-notes"));
  await writeFile(join(root, ".agents", "skills", "release-notes", "SKILL.md"), PLAIN_SKILL);
  const stepsRun: string[] = [];
  const shelf = await createShelf({
    root,
    userDirs: [],
    events: false,
    generate: async ({ prompt }) => {
      const step = /Step: .* \(([a-z]+)\)\./.exec(prompt)?.[1] ?? "?";
      stepsRun.push(step);
      const input = /<input name="[^"]+">\n([^\n]*)/.exec(prompt)?.[1] ?? "";
      return `${step}: ${input}`;
    },
    workflows: { mode: "auto", runId: () => "run-1" },
  });
  return {
    shelf,
    stepsRun,
    cleanup: async () => {
      await shelf.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A workflow skill whose second step runs the host's bash on the first step's output, under `Bash(git:*) read_file`. */
export const GIT_REPORT = `---
name: git-report
description: Report on the repository with git, step by step.
triggers: [git report]
allowed-tools: Bash(git:*) read_file
steps:
  - { id: pick, input: [args], output: command, run: pick_command }
  - { id: exec, input: [command], output: out, run: "tool:bash" }
---
Report on the repository.
`;

export interface GitReportFixture {
  shelf: Shelf;
  root: string;
  /** The commands the workflow's `tool:bash` step ran, in order. */
  ranByWorkflow: string[];
  cleanup(): Promise<void>;
}

/**
 * A shelf with one workflow skill (GIT_REPORT, or `markdown` of the same shape) that runs
 * without asking, no retries: `pick_command` passes the model's arguments on as the command,
 * and the host's bash records it. For an adapter's tests of a run the model makes fail.
 */
export async function gitReportFixture(markdown: string = GIT_REPORT): Promise<GitReportFixture> {
  const root = await mkdtemp(join(tmpdir(), "skillshelf-git-report-"));
  const dir = join(root, ".skillshelf", "skills", "git-report");
  await mkdir(join(dir, "steps"), { recursive: true });
  await writeFile(join(dir, "SKILL.md"), markdown);
  await writeFile(join(dir, "steps", "01-pick.md"), "Pick.");
  await writeFile(join(dir, "steps", "02-exec.md"), "Run it.");
  const ranByWorkflow: string[] = [];
  const shelf = await createShelf({
    root,
    userDirs: [],
    events: false,
    builtinRoles: false,
    workflows: {
      mode: "auto",
      defaults: { retries: 0 },
      functions: { pick_command: (request) => String(request.inputs.args) },
      callTool: (_tool, input) => {
        ranByWorkflow.push(String(input.command));
        return "ok";
      },
    },
  });
  return {
    shelf,
    root,
    ranByWorkflow,
    cleanup: async () => {
      await shelf.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
