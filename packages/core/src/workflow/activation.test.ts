import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { WorkflowToolResult } from "../types.js";
import { MAX_RESULT_OUTPUT_CHARS, workflowParams, workflowToolResult } from "./activation.js";
import { type SkillFolder, scriptedModel, writeWorkflowSkill } from "./test-utils/safe-refactor.js";

const folders: SkillFolder[] = [];
const shelves: Shelf[] = [];
afterEach(async () => {
  await Promise.all(shelves.splice(0).map((s) => s.close()));
  await Promise.all(folders.splice(0).map((f) => f.cleanup()));
});

async function shelfWith(options: Parameters<typeof createShelf>[0] = {}) {
  const folder = await writeWorkflowSkill(undefined, undefined);
  folders.push(folder);
  const shelf = await createShelf({
    root: folder.root,
    projectDirs: [join(folder.root, "skills")],
    userDirs: [],
    events: false,
    ...options,
  });
  shelves.push(shelf);
  return { folder, shelf };
}

describe("a workflow skill activated by the model", () => {
  it("runs its steps in core and answers the activation call with the run's result", async () => {
    const model = scriptedModel();
    const progress: string[] = [];
    const { folder, shelf } = await shelfWith({
      generate: model.generate,
      workflows: {
        confirm: () => true,
        checks: { "tests-pass": () => true },
        onProgress: (event) => progress.push(`${event.type}${event.step ? ` ${event.step}` : ""}`),
      },
    });
    const session = await shelf.openSession({
      history: [
        {
          kind: "tool-call",
          toolName: "read_file",
          input: { path: "notes.md" },
          output: "EARLIER-TOOL-RESULT",
        },
        { kind: "user", text: "safe refactor src/pay.ts please" },
      ],
      tools: ["read_file"],
    });
    const call = { id: "c1", name: "skill_safe-refactor", input: { args: "src/pay.ts" } };
    session.respond([call]);
    expect(model.seen).toHaveLength(0); // nothing runs before the call itself runs
    const answer = (await session.answerSkillTool(call)) as WorkflowToolResult;
    expect(answer.status).toBe("success");
    if (answer.status !== "success") return;
    expect(answer.data.steps.map((s) => s.id)).toEqual(["analyze", "plan", "execute", "verify"]);
    expect(answer.data.outputs.analysis_report).toBe("analyze output (from: src/pay.ts)");
    expect(answer.data.progress[0]).toBe("✓ 1/4 现状分析 (analyze)");
    expect(progress).toEqual([
      "run_start",
      ...["analyze", "plan", "execute", "verify"].flatMap((s) => [`step_start ${s}`, `step_done ${s}`]),
      "run_done",
    ]);
    // The same call asked again is the same run, not a second one.
    expect(await session.answerSkillTool(call)).toBe(answer);
    for (const seen of model.seen) expect(seen.prompt + seen.system).not.toContain("EARLIER-TOOL-RESULT");
    // Checkpoint and log under the state folder.
    const files = await readdir(join(folder.root, ".skillshelf", "workflows"));
    expect(files.sort()).toEqual([`${answer.data.run_id}.json`, `${answer.data.run_id}.jsonl`]);
    const log = await readFile(
      join(folder.root, ".skillshelf", "workflows", `${answer.data.run_id}.jsonl`),
      "utf8",
    );
    expect(log).toContain('"session":');
  });

  it("two conversations with the same call id and no thread never share a run (a multi-user stateless host)", async () => {
    const model = scriptedModel();
    const { shelf } = await shelfWith({
      generate: model.generate,
      workflows: { confirm: () => true, checks: { "tests-pass": () => true } },
    });
    const run = async (file: string) => {
      const session = await shelf.openSession({ message: `safe refactor ${file}` });
      const call = { id: "call_0", name: "skill_safe-refactor", input: { args: file } };
      session.respond([call]);
      return (await session.answerSkillTool(call)) as WorkflowToolResult;
    };
    const alice = await run("src/alice-secrets.ts");
    const bob = await run("src/bob.ts");
    if (alice.status !== "success" || bob.status !== "success") throw new Error("both runs should succeed");
    expect(bob.data.run_id).not.toBe(alice.data.run_id);
    expect(JSON.stringify(bob)).not.toContain("alice-secrets");
    expect(bob.data.outputs.analysis_report).toBe("analyze output (from: src/bob.ts)");
  });

  it("answers a declined or failed run with a structured error, and the skill is not left active", async () => {
    const model = scriptedModel();
    const { shelf } = await shelfWith({
      generate: model.generate,
      workflows: { confirm: ({ skill }) => skill !== "safe-refactor" },
    });
    const session = await shelf.openSession({ message: "safe refactor src/pay.ts" });
    const declined = (await session.answerSkillTool({
      id: "c1",
      name: "skill_safe-refactor",
      input: { args: "src/pay.ts" },
    })) as WorkflowToolResult;
    expect(declined).toMatchObject({ status: "error", error_type: "DECLINED" });
    expect(model.seen).toHaveLength(0);
    // Ended, not running (r14): its limits hold until the user's next message, as end_skill's do.
    expect(session.state.active.filter((a) => !a.finished)).toEqual([]);
  });

  it("is an ordinary skill (its instructions) when the host does not run workflows", async () => {
    const { shelf } = await shelfWith();
    const session = await shelf.openSession({ message: "safe refactor src/pay.ts" });
    const answer = session.answerSkillTool({
      id: "c1",
      name: "skill_safe-refactor",
      input: { args: "src/pay.ts" },
    });
    expect(answer).toMatchObject({ status: "success", data: { name: "safe-refactor" } });
  });

  it("/name args from the user: nothing is active, the model is asked to run it through the skill's tool", async () => {
    const model = scriptedModel();
    const { shelf } = await shelfWith({
      generate: model.generate,
      workflows: { mode: "auto", checks: { "tests-pass": () => true } },
    });
    const session = await shelf.openSession({ message: "/safe-refactor src/pay.ts" });
    const plan = session.plan();
    expect(plan.explicit).toMatchObject({ status: "success" });
    expect(session.active()).toEqual([]);
    expect(plan.tools.map((t) => t.name)).toContain("skill_safe-refactor");
    expect(plan.system).toContain(
      'The user ran /safe-refactor src/pay.ts: that skill is a workflow skillshelf runs step by step. Call skill_safe-refactor with {"args":"src/pay.ts"}',
    );
    expect(model.seen).toHaveLength(0);
    const answer = (await session.answerSkillTool({
      id: "c1",
      name: "skill_safe-refactor",
      input: { args: "src/pay.ts" },
    })) as WorkflowToolResult;
    expect(answer).toMatchObject({
      status: "success",
      data: { outputs: { analysis_report: "analyze output (from: src/pay.ts)" } },
    });
  });

  it("holds a step's host tool to the skill's whitelist", async () => {
    const folder = await writeWorkflowSkill(
      `---
name: tool-step
description: One step run by a host tool, under a whitelist.
allowed-tools: read_file
steps:
  - { id: send, input: [args], output: sent, run: "tool:send_email" }
---
body
`,
      { "01-send": "Send it." },
    );
    folders.push(folder);
    const ran: string[] = [];
    const shelf = await createShelf({
      root: folder.root,
      projectDirs: [join(folder.root, "skills")],
      userDirs: [],
      events: false,
      workflows: {
        mode: "auto",
        defaults: { retries: 0 },
        callTool: (name) => {
          ran.push(name);
          return "sent";
        },
      },
    });
    shelves.push(shelf);
    const session = await shelf.openSession({ message: "go", tools: ["read_file", "send_email"] });
    const answer = await session.answerSkillTool({ id: "c1", name: "skill_tool-step", input: { args: "x" } });
    expect(answer).toMatchObject({
      status: "error",
      error_type: "STEP_FAILED",
      step: "send",
      reason: "executor-error",
    });
    expect(ran).toEqual([]);
  });
});

describe("workflowParams", () => {
  it("maps words onto `arguments` names and keeps the request as `args`; a typed skill's values as they are", () => {
    expect(workflowParams({ arguments: ["module_path", "depth"] }, 'src/a.ts "2 levels"')).toEqual({
      module_path: "src/a.ts",
      depth: "2 levels",
      args: 'src/a.ts "2 levels"',
    });
    expect(workflowParams({ arguments: [] }, '{"month": "2026-11", "__proto__": {"x": 1}}')).toMatchObject({
      month: "2026-11",
    });
    expect(Object.getPrototypeOf(workflowParams({ arguments: [] }, '{"__proto__": {"x": 1}}'))).toBe(
      Object.prototype,
    );
  });
});

describe("workflowToolResult", () => {
  it("shows the outputs within a budget, the last ones first; an earlier one that does not fit is named", async () => {
    const folder = await writeWorkflowSkill();
    folders.push(folder);
    const big = "x".repeat(MAX_RESULT_OUTPUT_CHARS - 10);
    const answer = workflowToolResult(folder.skill, {
      status: "done",
      runId: "r",
      skill: "safe-refactor",
      outputs: { analysis_report: big, verify_result: "all 40 tests pass" },
      steps: [],
    });
    expect(answer).toMatchObject({
      status: "success",
      data: {
        outputs: {
          analysis_report: `(${big.length} characters, kept in the run's checkpoint)`,
          verify_result: "all 40 tests pass",
        },
      },
    });
  });
});
