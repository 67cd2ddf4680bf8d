import {
  WORKFLOW_STEPS,
  WORKFLOW_TOOL,
  type WorkflowFixture,
  workflowFixture,
} from "@skillshelf/core/testing";
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage } from "langchain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";

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
const isStepEvent = (chunk: unknown): chunk is Event =>
  (chunk as { type?: unknown } | null)?.type === "skillshelf-workflow";

function agentStartingTheRun() {
  const model = fakeModel()
    .respondWithTools([{ name: WORKFLOW_TOOL, args: { args: "release/2.0" }, id: "w1" }])
    .respond(new AIMessage("Ship it."));
  const agent = createAgent({ model, tools: [], middleware: [skillsMiddleware({ shelf: fixture.shelf })] });
  return { agent, model };
}

const ask = { messages: [new HumanMessage("release check release/2.0")] };

function toolAnswer(message: ToolMessage | undefined) {
  return JSON.parse(message?.text ?? "null") as { status: string; data: { outputs: Record<string, string> } };
}

describe("a workflow skill the model starts", () => {
  it('streams one custom chunk per step start and done, in order, before the tool message (streamMode "custom")', async () => {
    const { agent, model } = agentStartingTheRun();
    const seen: Array<{ mode: string; chunk: unknown }> = [];
    for await (const [mode, chunk] of await agent.stream(ask, { streamMode: ["custom", "updates"] })) {
      seen.push({ mode, chunk });
    }
    const events = seen
      .filter((s) => s.mode === "custom" && isStepEvent(s.chunk))
      .map((s) => s.chunk as Event);
    expect(events.map(said)).toEqual(EXPECTED);
    expect(events.every((e) => e.run_id === "run-1" && e.skill === "release-check")).toBe(true);

    // The tool node's update (the run's result) comes after the last step event.
    const lastEvent = seen.findLastIndex((s) => s.mode === "custom");
    const toolUpdate = seen.findIndex(
      (s) => s.mode === "updates" && JSON.stringify(s.chunk).includes("verdict: risks: read: release/2.0"),
    );
    expect(toolUpdate).toBeGreaterThan(lastEvent);

    // The model reads the run's result, and none of the step events.
    const next = model.calls[1]?.messages ?? [];
    const answer = next.find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(toolAnswer(answer).data.outputs.verdict).toBe("verdict: risks: read: release/2.0");
    expect(JSON.stringify(next.map((m) => m.content))).not.toContain("skillshelf-workflow");
  });

  it("invoke still answers with the run's result alone", async () => {
    const { agent } = agentStartingTheRun();
    const result = await agent.invoke(ask);
    const answers = result.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(answers).toHaveLength(1);
    const answer = toolAnswer(answers[0]);
    expect(answer.status).toBe("success");
    expect(Object.keys(answer.data.outputs)).toEqual(["changes", "risks", "verdict"]);
    expect(result.messages.at(-1)?.text).toBe("Ship it.");
  });

  it("a stream in another mode carries no step events and the same result", async () => {
    const { agent } = agentStartingTheRun();
    let last: { messages: unknown[] } | undefined;
    const chunks: unknown[] = [];
    for await (const chunk of await agent.stream(ask, { streamMode: "values" })) {
      chunks.push(chunk);
      last = chunk as { messages: unknown[] };
    }
    expect(chunks.some(isStepEvent)).toBe(false);
    const answer = last?.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(toolAnswer(answer).status).toBe("success");
  });
});
