import { Agent } from "@mastra/core/agent";
import { MockMemory } from "@mastra/core/memory";
import {
  WORKFLOW_STEPS,
  WORKFLOW_TOOL,
  type WorkflowFixture,
  workflowFixture,
} from "@skillshelf/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { scriptedModel } from "./test-utils/model.js";
import { skillTool } from "./tools.js";

let fixture: WorkflowFixture;
beforeEach(async () => {
  fixture = await workflowFixture();
});
afterEach(() => fixture.cleanup());

const EXPECTED = WORKFLOW_STEPS.flatMap((step, i) => [`${i + 1}/3 ${step} start`, `${i + 1}/3 ${step} done`]);

type Event = {
  type: string;
  skill: string;
  step: string;
  index: number;
  of: number;
  status: string;
  run_id: string;
};
const said = (event: Event) => `${event.index}/${event.of} ${event.step} ${event.status}`;
const isStepEvent = (output: unknown): output is Event =>
  (output as { type?: unknown } | null)?.type === "skillshelf-workflow";

type Chunk = {
  type: string;
  payload?: { toolName?: string; toolCallId?: string; output?: unknown; result?: unknown };
};

function agentStartingTheRun(extra: { memory?: MockMemory } = {}) {
  const skills = createSkills({ shelf: fixture.shelf, onDiagnostic: () => undefined });
  const mock = scriptedModel([
    { calls: [[WORKFLOW_TOOL, { args: "release/2.0" }]] },
    { text: "Ship it." },
    { text: "It was 2.0." },
  ]);
  const agent = new Agent({
    id: "assistant",
    name: "Assistant",
    instructions: "You check releases.",
    model: mock.model,
    tools: {},
    inputProcessors: [skills.processor],
    ...extra,
  });
  return { agent, mock };
}

const ASK = "release check release/2.0";

describe("a workflow skill the model starts", () => {
  it("agent.stream carries one tool-output chunk per step start and done, in order, before the tool result", async () => {
    const { agent, mock } = agentStartingTheRun();
    const stream = await agent.stream(ASK, { maxSteps: 4 });
    const chunks: Chunk[] = [];
    for await (const chunk of stream.fullStream) chunks.push(chunk as Chunk);

    const outputs = chunks.filter((c) => c.type === "tool-output" && isStepEvent(c.payload?.output));
    const events = outputs.map((c) => c.payload?.output as Event);
    expect(events.map(said)).toEqual(EXPECTED);
    expect(events.every((e) => e.run_id === "run-1" && e.skill === "release-check")).toBe(true);
    expect(outputs.every((c) => c.payload?.toolName === WORKFLOW_TOOL)).toBe(true);

    const result = chunks.findIndex((c) => c.type === "tool-result" && c.payload?.toolName === WORKFLOW_TOOL);
    expect(result).toBeGreaterThan(chunks.lastIndexOf(outputs.at(-1)!));
    expect(new Set(outputs.map((c) => c.payload?.toolCallId))).toEqual(
      new Set([chunks[result]?.payload?.toolCallId]),
    );
    const answer = chunks[result]?.payload?.result as {
      status: string;
      data: { outputs: Record<string, string> };
    };
    expect(answer.data.outputs.verdict).toBe("verdict: risks: read: release/2.0");
    expect(await stream.text).toBe("Ship it.");

    // The model reads the run's result, and none of the step events.
    const next = JSON.stringify(mock.calls()[1]?.prompt);
    expect(next).toContain("verdict: risks: read: release/2.0");
    expect(next).not.toContain("skillshelf-workflow");
  });

  it("agent.generate still answers with the run's result alone", async () => {
    const { agent } = agentStartingTheRun();
    const result = await agent.generate(ASK, { maxSteps: 4 });
    const results = result.toolResults.map(
      (r) => ((r as { payload?: unknown }).payload ?? r) as { toolName: string; result: unknown },
    );
    expect(results.map((r) => r.toolName)).toEqual([WORKFLOW_TOOL]);
    const answer = results[0]?.result as { status: string; data: { steps: Array<{ id: string }> } };
    expect(answer.status).toBe("success");
    expect(answer.data.steps.map((s) => s.id)).toEqual(WORKFLOW_STEPS);
    expect(result.text).toBe("Ship it.");
  });

  it("a memory thread's next turn reads the run's result, not its step events", async () => {
    const { agent, mock } = agentStartingTheRun({ memory: new MockMemory() });
    const memory = { thread: "thread-1", resource: "user-1" };
    const first = await agent.stream(ASK, { maxSteps: 4, memory });
    for await (const _ of first.fullStream) {
      // drain
    }
    const second = await agent.stream("which version was it?", { maxSteps: 4, memory });
    expect(await second.text).toBe("It was 2.0.");
    const read = JSON.stringify(mock.calls()[2]?.prompt);
    expect(read).toContain("verdict: risks: read: release/2.0");
    expect(read).not.toContain("skillshelf-workflow");
  });

  it.each([
    ["throws", () => new Error("stream closed")],
    ["rejects", () => Promise.reject(new Error("stream closed"))],
  ])("a writer that %s fails neither the run nor its result", async (_, fail) => {
    let writes = 0;
    const write = () => {
      writes++;
      const failure = fail();
      if (failure instanceof Error) throw failure;
      return failure;
    };
    const session = await fixture.shelf.openSession({ history: [{ kind: "user", text: ASK }], tools: [] });
    const spec = session.plan().tools.find((t) => t.name === WORKFLOW_TOOL)!;
    const input = { args: "release/2.0" };
    session.respond([{ id: "c1", name: WORKFLOW_TOOL, input }]);
    const execute = skillTool(spec, session).execute as (
      input: unknown,
      context: unknown,
    ) => Promise<unknown>;
    const answer = (await execute(input, { toolCallId: "c1", writer: { write } })) as { status: string };
    expect(answer.status).toBe("success");
    expect(writes).toBe(EXPECTED.length);
  });
});
