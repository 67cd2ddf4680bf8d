import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileRunStore } from "./file-run-store.js";
import { memoryRunStore } from "./run-store.js";
import { runWorkflow } from "./runner.js";
import { type SkillFolder, scriptedModel, writeWorkflowSkill } from "./test-utils/safe-refactor.js";

const folders: SkillFolder[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => f.cleanup()));
});
async function safeRefactor(): Promise<SkillFolder> {
  const folder = await writeWorkflowSkill();
  folders.push(folder);
  return folder;
}
const NOW = () => new Date("2026-12-01T10:00:00Z");
const testsPass = { "tests-pass": () => ({ ok: true }) };

describe("runWorkflow on seed 004's safe_refactor", () => {
  it("runs the four steps in order, each output becoming the next step's input", async () => {
    const { skill } = await safeRefactor();
    const model = scriptedModel();
    const result = await runWorkflow({
      skill,
      params: { module_path: "src/payments/batch.ts" },
      generate: model.generate,
      checks: testsPass,
      mode: "auto",
      now: NOW,
      timeZone: "UTC",
    });
    expect(result.status).toBe("done");
    if (result.status !== "done") return;
    expect(result.steps.map((s) => s.id)).toEqual(["analyze", "plan", "execute", "verify"]);
    expect(result.outputs).toEqual({
      analysis_report: "analyze output (from: src/payments/batch.ts)",
      refactor_plan: "plan output (from: analyze output (from: src/payments/batch.ts))",
      changed_files:
        "execute output (from: plan output (from: analyze output (from: src/payments/batch.ts)))",
      verify_result:
        "verify output (from: execute output (from: plan output (from: analyze output (from: src/payments/batch.ts))))",
    });
    const stepCalls = model.seen.filter((c) => c.system.startsWith("You carry out"));
    expect(stepCalls).toHaveLength(4);
    // The date line is there (relative dates need it).
    for (const call of stepCalls) expect(call.system).toContain("2026-12-01");
  });

  it("shows each step only its prompt, its declared inputs and the date: no other step's output or scratch", async () => {
    const { skill } = await safeRefactor();
    let plans = 0;
    const model = scriptedModel({
      failVerify: { plan: 1 },
      answer: (step) => (step === "plan" ? `PLAN-DRAFT-${++plans}` : undefined),
    });
    await runWorkflow({
      skill,
      params: { module_path: "src/a.ts", args: "SECRET-CONVERSATION-TEXT" },
      generate: model.generate,
      checks: testsPass,
      mode: "auto",
      now: NOW,
    });
    const steps = model.seen.filter((c) => c.system.startsWith("You carry out"));
    const execute = steps.find((c) => c.prompt.includes("(execute)"))!;
    expect(execute.prompt).toContain('<input name="refactor_plan">');
    expect(execute.prompt).not.toContain("analysis_report");
    expect(execute.prompt).not.toContain('<input name="module_path">');
    expect(execute.prompt).toContain("PLAN-DRAFT-2");
    expect(execute.prompt).not.toContain("PLAN-DRAFT-1"); // the plan step's rejected attempt
    expect(execute.prompt).not.toContain("dependency list is missing"); // the plan step's failed check
    expect(execute.prompt).toContain("Apply the plan. List every changed file.");
    expect(execute.prompt).not.toContain("Read the module"); // another step's prompt
    for (const call of model.seen)
      expect(call.prompt + call.system).not.toContain("SECRET-CONVERSATION-TEXT");
    // The retried step itself is told why its last attempt failed.
    const planCalls = steps.filter((c) => c.prompt.includes("(plan)"));
    expect(planCalls).toHaveLength(2);
    expect(planCalls[1]!.prompt).toContain("not accepted");
  });

  it("a failing verify retries only its own step", async () => {
    const { skill } = await safeRefactor();
    const model = scriptedModel({ failVerify: { plan: 2 } });
    const store = memoryRunStore();
    const result = await runWorkflow({
      skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      checks: testsPass,
      mode: "auto",
      store,
    });
    expect(result.status).toBe("done");
    const starts = store.log.filter((r) => r.type === "step_start").map((r) => `${r.step}#${r.attempt}`);
    expect(starts).toEqual(["analyze#1", "plan#1", "plan#2", "plan#3", "execute#1", "verify#1"]);
    expect(store.log.filter((r) => r.type === "step_retry").map((r) => r.reason)).toEqual([
      "verify-failed",
      "verify-failed",
    ]);
  });

  it("a verify that keeps failing ends the run with a result naming the step and the reason", async () => {
    const { skill } = await safeRefactor();
    const model = scriptedModel({ failVerify: { execute: 99 } });
    const result = await runWorkflow({
      skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      mode: "auto",
    });
    expect(result).toMatchObject({
      status: "failed",
      failure: { step: "execute", title: "执行改动", reason: "verify-failed", attempts: 3 },
      outputs: { analysis_report: expect.any(String), refactor_plan: expect.any(String) },
    });
    if (result.status === "failed") expect(result.failure.message).toContain("dependency list is missing");
  });

  it("a host check registered by name decides that step, not the model", async () => {
    const { skill } = await safeRefactor();
    const model = scriptedModel();
    const result = await runWorkflow({
      skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      checks: {
        "tests-pass": ({ output }) => ({
          ok: false,
          reason: `2 of 40 tests fail in ${String(output).slice(0, 6)}`,
        }),
      },
      mode: "auto",
      defaults: { retries: 0 },
    });
    expect(result).toMatchObject({
      status: "failed",
      failure: { step: "verify", reason: "verify-failed", attempts: 1 },
    });
    if (result.status === "failed") expect(result.failure.message).toContain("2 of 40 tests fail in verify");
  });

  it("a step that does not finish in time ends the run with a timeout result", async () => {
    const folder = await writeWorkflowSkill(
      (await import("./test-utils/safe-refactor.js")).SAFE_REFACTOR_MD.replace(
        "    output: refactor_plan\n",
        "    output: refactor_plan\n    timeout: 0.05\n    retries: 1\n",
      ),
    );
    folders.push(folder);
    const model = scriptedModel({ hang: "plan" });
    const store = memoryRunStore();
    const result = await runWorkflow({
      skill: folder.skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      checks: testsPass,
      mode: "auto",
      store,
    });
    expect(result).toMatchObject({
      status: "failed",
      failure: { step: "plan", reason: "timeout", attempts: 2 },
    });
    expect(store.log.map((r) => r.type)).toEqual([
      "run_start",
      "step_start",
      "step_done",
      "step_start",
      "step_retry",
      "step_start",
      "step_failed",
      "run_failed",
    ]);
  });

  it("asks the host to confirm before a run, and runs nothing when declined", async () => {
    const { skill } = await safeRefactor();
    const model = scriptedModel();
    const asked: unknown[] = [];
    const result = await runWorkflow({
      skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      confirm: (request) => {
        asked.push(request);
        return false;
      },
    });
    expect(result).toMatchObject({ status: "refused", reason: "DECLINED" });
    expect(model.seen).toHaveLength(0);
    expect(asked).toMatchObject([
      { skill: "safe-refactor", steps: [{ id: "analyze", title: "现状分析", run: "model" }, {}, {}, {}] },
    ]);
    // Without a confirm callback and not in "auto" mode, nothing runs either (fail closed).
    expect(
      await runWorkflow({ skill, params: { module_path: "m.ts" }, generate: model.generate }),
    ).toMatchObject({
      status: "refused",
      reason: "DECLINED",
    });
  });

  it("refuses a run whose parameters are missing, before asking anyone", async () => {
    const { skill } = await safeRefactor();
    const result = await runWorkflow({ skill, params: {}, mode: "auto" });
    expect(result).toMatchObject({ status: "refused", reason: "MISSING_PARAMETERS" });
    if (result.status === "refused") expect(result.message).toContain("`module_path`");
  });

  it("runs steps on a host function or a host tool, and a verify with no check and no model fails closed", async () => {
    const folder = await writeWorkflowSkill(
      `---
name: two-step
description: Two steps run by the host, to test the executors.
arguments: [n]
steps:
  - id: double
    input: [n]
    output: doubled
    run: double
  - id: report
    input: [doubled]
    output: report
    run: tool:format_report
    verify: unchecked
---
body
`,
      { "01-double": "Double n.", "02-report": "Format it." },
    );
    folders.push(folder);
    const toolCalls: unknown[] = [];
    const result = await runWorkflow({
      skill: folder.skill,
      params: { n: 21 },
      mode: "auto",
      functions: { double: ({ inputs }) => (inputs.n as number) * 2 },
      callTool: async (name, input) => {
        toolCalls.push({ name, input });
        return { text: `n*2 = ${input.doubled}` };
      },
      defaults: { retries: 0 },
    });
    expect(toolCalls).toEqual([{ name: "format_report", input: { doubled: 42 } }]);
    expect(result).toMatchObject({ status: "failed", failure: { step: "report", reason: "verify-failed" } });
    const checked = await runWorkflow({
      skill: folder.skill,
      params: { n: 21 },
      mode: "auto",
      functions: { double: ({ inputs }) => (inputs.n as number) * 2 },
      callTool: async (_name, input) => ({ text: `n*2 = ${input.doubled}` }),
      checks: { unchecked: () => true },
    });
    expect(checked).toMatchObject({ status: "done", outputs: { doubled: 42, report: { text: "n*2 = 42" } } });
  });

  it("asks the model to condense an output over the limit, and fails the step if it stays too long", async () => {
    const folder = await writeWorkflowSkill(
      `---
name: long-list
description: One step whose output grows, to test the output guard.
steps:
  - id: list
    input: [args]
    output: items
    max-output: 40
---
body
`,
      { "01-list": "List the risks." },
    );
    folders.push(folder);
    const condensing: string[] = [];
    const ok = await runWorkflow({
      skill: folder.skill,
      params: { args: "x" },
      mode: "auto",
      generate: async ({ system }) => {
        if (system.startsWith("You condense")) {
          condensing.push(system);
          return "3 risks: auth, cache, retries";
        }
        return "risk 1: auth\nrisk 2: cache\nrisk 3: retries\nrisk 4: more detail";
      },
    });
    expect(ok).toMatchObject({ status: "done", outputs: { items: "3 risks: auth, cache, retries" } });
    expect(condensing).toHaveLength(1);
    const tooLong = await runWorkflow({
      skill: folder.skill,
      params: { args: "x" },
      mode: "auto",
      defaults: { retries: 0 },
      generate: async () => "a very long output that never gets any shorter at all",
    });
    expect(tooLong).toMatchObject({ status: "failed", failure: { reason: "output-too-large" } });
  });
});

describe("a typed workflow skill", () => {
  it("gets its arguments checked by its schema (defaults filled in) before any step runs", async () => {
    const folder = await writeWorkflowSkill(
      `---
name: member-report
description: Top members for a period, then a report.
parameters:
  type: object
  properties:
    time_range: { type: string, enum: [current_month, last_month] }
    limit: { type: integer, default: 10 }
  required: [time_range]
  additionalProperties: false
steps:
  - { id: query, input: [time_range, limit], output: rows, run: query }
---
body
`,
      { "01-query": "Query." },
    );
    folders.push(folder);
    const seen: unknown[] = [];
    const functions = { query: ({ inputs }: { inputs: Record<string, unknown> }) => seen.push(inputs) };
    const refused = await runWorkflow({
      skill: folder.skill,
      params: { time_range: "this_month" },
      mode: "auto",
      functions,
    });
    expect(refused).toMatchObject({ status: "refused", reason: "INVALID_ARGUMENTS" });
    if (refused.status === "refused") expect(refused.message).toContain("time_range");
    expect(seen).toEqual([]);
    const ok = await runWorkflow({
      skill: folder.skill,
      params: { time_range: "last_month", args: "top members last month" },
      mode: "auto",
      functions,
    });
    expect(ok.status).toBe("done");
    expect(seen).toEqual([{ time_range: "last_month", limit: 10 }]);
  });
});

describe("checkpoints and the run log (file store)", () => {
  it("resumes after the last checkpointed step, never running a completed one again", async () => {
    const folder = await safeRefactor();
    const store = createFileRunStore(join(folder.root, ".skillshelf"));
    const ran: string[] = [];
    const model = scriptedModel({
      answer: (step) => {
        ran.push(step);
        if (step === "execute" && ran.filter((s) => s === "execute").length === 1)
          throw new Error("process died");
        return undefined;
      },
    });
    const options = {
      skill: folder.skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      checks: testsPass,
      mode: "auto" as const,
      store,
      runId: "run_resume_test",
      defaults: { retries: 0 },
    };
    const first = await runWorkflow(options);
    expect(first).toMatchObject({ status: "failed", failure: { step: "execute", reason: "executor-error" } });
    // A failed run stays failed: asking again returns the same result without running anything.
    expect(await runWorkflow(options)).toMatchObject({ status: "failed" });
    expect(ran).toEqual(["analyze", "plan", "execute"]);

    // A crash mid-step looks like a checkpoint still "running": the next process resumes it.
    const checkpointFile = join(store.dir, "run_resume_test.json");
    const saved = JSON.parse(await readFile(checkpointFile, "utf8"));
    await (await import("node:fs/promises")).writeFile(
      checkpointFile,
      JSON.stringify({ ...saved, status: "running", failure: undefined }),
    );
    // The run keeps its own parameters: resuming it needs none given again.
    const resumed = await runWorkflow({ ...options, params: {} });
    expect(resumed).toMatchObject({ status: "done" });
    expect(ran).toEqual(["analyze", "plan", "execute", "execute", "verify"]);
    if (resumed.status === "done") {
      expect(resumed.steps.map((s) => [s.id, s.resumed])).toEqual([
        ["analyze", true],
        ["plan", true],
        ["execute", false],
        ["verify", false],
      ]);
    }
    const log = (await readFile(join(store.dir, "run_resume_test.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(log.map((r) => r.type)).toContain("run_resume");
    for (const record of log.filter((r) => r.type === "step_done")) {
      expect(record).toMatchObject({
        run_id: "run_resume_test",
        skill: "safe-refactor",
        duration_ms: expect.any(Number),
      });
    }
  });

  it("does not resume a run whose step prompt changed since, and a cancelled run stays resumable", async () => {
    const folder = await safeRefactor();
    const store = memoryRunStore();
    const controller = new AbortController();
    const ran: string[] = [];
    const model = scriptedModel({
      answer: (step) => {
        ran.push(step);
        if (step === "plan") controller.abort();
        return undefined;
      },
    });
    const options = {
      skill: folder.skill,
      params: { module_path: "m.ts" },
      generate: model.generate,
      checks: testsPass,
      mode: "auto" as const,
      store,
      runId: "r_cancel",
    };
    const cancelled = await runWorkflow({ ...options, signal: controller.signal });
    expect(cancelled).toMatchObject({ status: "failed", failure: { step: "plan", reason: "aborted" } });
    expect((await store.load("r_cancel"))?.status).toBe("running");
    expect(await runWorkflow(options)).toMatchObject({ status: "done" });
    expect(ran).toEqual(["analyze", "plan", "plan", "execute", "verify"]);

    await store.save({
      ...(await store.load("r_cancel"))!,
      runId: "r_edited",
      status: "running",
      completed: [],
    });
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(folder.dir, "steps", "02-plan.md"), "Plan something else entirely.");
    expect(await runWorkflow({ ...options, runId: "r_edited" })).toMatchObject({
      status: "refused",
      reason: "SKILL_CHANGED",
    });
  });

  it("two runners started on the same run (file store) run each step once", async () => {
    const folder = await safeRefactor();
    const ran: string[] = [];
    const model = scriptedModel({
      answer: (step) => {
        ran.push(step);
        return undefined;
      },
    });
    const run = () =>
      runWorkflow({
        skill: folder.skill,
        params: { module_path: "m.ts" },
        generate: model.generate,
        checks: testsPass,
        mode: "auto",
        store: createFileRunStore(join(folder.root, ".skillshelf")),
        runId: "run_twice",
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect([a.status, b.status]).toEqual(["done", "done"]);
    expect(ran).toEqual(["analyze", "plan", "execute", "verify"]);
  });

  it("does not resume a run with a skill whose file changed since", async () => {
    const folder = await safeRefactor();
    const store = memoryRunStore();
    const model = scriptedModel({ answer: (step) => (step === "plan" ? "" : undefined) });
    const options = {
      params: { module_path: "m.ts" },
      generate: model.generate,
      mode: "auto" as const,
      store,
      runId: "r1",
    };
    await store.save({
      format: 1,
      runId: "r1",
      skill: "safe-refactor",
      skillHash: "0".repeat(64),
      params: {},
      status: "running",
      completed: [],
      startedAt: "",
      updatedAt: "",
    });
    expect(await runWorkflow({ ...options, skill: folder.skill })).toMatchObject({
      status: "refused",
      reason: "SKILL_CHANGED",
    });
  });
});
