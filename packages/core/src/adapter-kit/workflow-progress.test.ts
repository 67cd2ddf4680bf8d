import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf, type ShelfOptions } from "../shelf.js";
import type { WorkflowToolResult } from "../types.js";
import type { WorkflowProgress } from "../workflow/runner.js";
import { type SkillFolder, scriptedModel, writeWorkflowSkill } from "../workflow/test-utils/safe-refactor.js";
import { runSkillTool } from "./tool-calls.js";
import {
  isWorkflowProgressEvent,
  listenForWorkflowProgress,
  type WorkflowProgressEvent,
  workflowProgressEvent,
} from "./workflow-progress.js";

const folders: SkillFolder[] = [];
const shelves: Shelf[] = [];
afterEach(async () => {
  await Promise.all(shelves.splice(0).map((s) => s.close()));
  await Promise.all(folders.splice(0).map((f) => f.cleanup()));
});

const STEPS = ["analyze", "plan", "execute", "verify"];

async function sessionWith(options: Partial<ShelfOptions> = {}, failVerify?: Record<string, number>) {
  const folder = await writeWorkflowSkill();
  folders.push(folder);
  const model = scriptedModel(failVerify ? { failVerify } : {});
  const shelf = await createShelf({
    root: folder.root,
    projectDirs: [join(folder.root, "skills")],
    userDirs: [],
    events: false,
    generate: model.generate,
    ...options,
    workflows: {
      confirm: () => true,
      checks: { "tests-pass": () => true },
      runId: () => "run-1",
      ...options.workflows,
    },
  });
  shelves.push(shelf);
  const session = await shelf.openSession({
    history: [{ kind: "user", text: "safe refactor src/pay.ts" }],
    tools: ["read_file"],
  });
  const call = { id: "c1", name: "skill_safe-refactor", input: { args: "src/pay.ts" } };
  session.respond([call]);
  return { session, call };
}

describe("a workflow run's progress for the call that started it", () => {
  it("reaches the call's listener, one event per step start and done in order, and the host's callback still", async () => {
    const host: string[] = [];
    const { session, call } = await sessionWith({
      workflows: { onProgress: (p: WorkflowProgress) => host.push(p.type) },
    });
    const events: WorkflowProgressEvent[] = [];
    const { value, started } = listenForWorkflowProgress(
      (e) => events.push(e),
      () => runSkillTool(session, call),
    );
    expect(started).toBe(true);
    const answer = (await value) as WorkflowToolResult;
    expect(answer.status).toBe("success");
    expect(events.map((e) => `${e.index}/${e.of} ${e.step} ${e.status}`)).toEqual(
      STEPS.flatMap((s, i) => [`${i + 1}/4 ${s} start`, `${i + 1}/4 ${s} done`]),
    );
    expect(events.every((e) => e.type === "skillshelf-workflow" && e.run_id === "run-1")).toBe(true);
    expect(events.every((e) => e.skill === "safe-refactor" && e.attempt === 1)).toBe(true);
    expect(events.filter((e) => e.status === "done").every((e) => typeof e.ms === "number")).toBe(true);
    expect(host).toContain("run_start");
    expect(host).toContain("run_done");
    // Ids, status and timing only: none of the outputs the result carries.
    const streamed = JSON.stringify(events);
    if (answer.status === "success") {
      for (const output of Object.values(answer.data.outputs)) expect(streamed).not.toContain(String(output));
    }
  });

  it("leaves the result exactly what a call without a listener reads", async () => {
    const plain = await sessionWith();
    const without = await runSkillTool(plain.session, plain.call);
    const listened = await sessionWith();
    const { value } = listenForWorkflowProgress(
      () => undefined,
      () => runSkillTool(listened.session, listened.call),
    );
    expect(JSON.stringify(await value)).toBe(JSON.stringify(without));
  });

  it("a listener that throws fails neither the run nor its result", async () => {
    const { session, call } = await sessionWith();
    const { value } = listenForWorkflowProgress(
      () => {
        throw new Error("the stream's consumer went away");
      },
      () => runSkillTool(session, call),
    );
    const answer = (await value) as WorkflowToolResult;
    expect(answer.status).toBe("success");
    if (answer.status === "success") expect(answer.data.steps).toHaveLength(4);
  });

  it("a retried step streams its retry with the reason's name, never the check's text", async () => {
    const { session, call } = await sessionWith({}, { analyze: 1 });
    const events: WorkflowProgressEvent[] = [];
    const { value } = listenForWorkflowProgress(
      (e) => events.push(e),
      () => runSkillTool(session, call),
    );
    expect(((await value) as WorkflowToolResult).status).toBe("success");
    expect(events.slice(0, 4).map((e) => `${e.step} ${e.status} ${e.attempt}`)).toEqual([
      "analyze start 1",
      "analyze retry 1",
      "analyze start 2",
      "analyze done 2",
    ]);
    expect(events[1]?.reason).toBe("verify-failed");
    expect(JSON.stringify(events)).not.toContain("dependency list");
  });

  it("a call that starts no run (the same call again, a plain tool) says so", async () => {
    const { session, call } = await sessionWith();
    await runSkillTool(session, call);
    const again = listenForWorkflowProgress(
      () => undefined,
      () => runSkillTool(session, call),
    );
    expect(again.started).toBe(false);
    const end = listenForWorkflowProgress(
      () => undefined,
      () => runSkillTool(session, { id: "c2", name: "end_skill", input: {} }),
    );
    expect(end.started).toBe(false);
  });
});

describe("workflowProgressEvent", () => {
  const steps = [{ id: "a" }, { id: "b" }];
  const record = { at: "2026-12-01T00:00:00.000Z", run_id: "r", skill: "s" };
  it("says nothing of the run's own start and end, nor of a step the skill does not have", () => {
    expect(workflowProgressEvent({ ...record, type: "run_start" }, steps)).toBeUndefined();
    expect(workflowProgressEvent({ ...record, type: "run_done" }, steps)).toBeUndefined();
    expect(workflowProgressEvent({ ...record, type: "step_start", step: "zz" }, steps)).toBeUndefined();
  });
  it("keeps a failure's reason when it is one of the runner's and drops its message", () => {
    const failed = workflowProgressEvent(
      {
        ...record,
        type: "step_failed",
        step: "b",
        attempt: 3,
        duration_ms: 12,
        reason: "timeout",
        message: "secret",
      },
      steps,
    );
    expect(failed).toEqual({
      type: "skillshelf-workflow",
      run_id: "r",
      skill: "s",
      step: "b",
      index: 2,
      of: 2,
      status: "failed",
      attempt: 3,
      ms: 12,
      reason: "timeout",
    });
    const odd = workflowProgressEvent(
      { ...record, type: "step_retry", step: "a", reason: "see http://x" },
      steps,
    );
    expect(odd?.reason).toBeUndefined();
  });
});

describe("isWorkflowProgressEvent", () => {
  it("tells a step's event from another tool's chunk", () => {
    const event = workflowProgressEvent(
      { type: "step_start", at: "2026-12-01T00:00:00.000Z", run_id: "r", skill: "s", step: "a", attempt: 1 },
      [{ id: "a" }],
    );
    expect(isWorkflowProgressEvent(event)).toBe(true);
    expect(isWorkflowProgressEvent({ type: "skillshelf-workflow" })).toBe(false);
    expect(isWorkflowProgressEvent({ status: "success", data: {} })).toBe(false);
    expect(isWorkflowProgressEvent("skillshelf-workflow")).toBe(false);
    expect(isWorkflowProgressEvent(null)).toBe(false);
  });
});
