import {
  WORKFLOW_STEPS,
  WORKFLOW_TOOL,
  type WorkflowFixture,
  workflowFixture,
} from "@skillshelf/core/testing";
import {
  generateText,
  isStepCount,
  type ModelMessage,
  streamText,
  type TextStreamPart,
  type ToolSet,
  toUIMessageStream,
} from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills, type Skills } from "./index.js";
import { scriptedModel } from "./test-utils/mock-model.js";

let fixture: WorkflowFixture;
let skills: Skills;
beforeEach(async () => {
  fixture = await workflowFixture();
  skills = await createSkills({ shelf: fixture.shelf });
});
afterEach(() => fixture.cleanup());

const messages: ModelMessage[] = [{ role: "user", content: "release check release/2.0" }];
const startsTheRun = () =>
  scriptedModel((_call, i) =>
    i === 0 ? { toolCalls: [{ name: WORKFLOW_TOOL, input: { args: "release/2.0" } }] } : { text: "Ship it." },
  );

/** Every step's start and done, in order, as the events say them. */
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

describe("a workflow skill the model starts", () => {
  it("streamText streams one preliminary tool result per step start and done, in order, before the run's result", async () => {
    const model = startsTheRun();
    const result = streamText({
      model,
      messages,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages }),
    });
    const parts: TextStreamPart<ToolSet>[] = [];
    for await (const part of result.stream) parts.push(part);

    const results = parts.filter(
      (p): p is Extract<TextStreamPart<ToolSet>, { type: "tool-result" }> =>
        p.type === "tool-result" && p.toolName === WORKFLOW_TOOL,
    );
    const events = results
      .filter((p) => p.preliminary && isStepEvent(p.output))
      .map((p) => p.output as Event);
    expect(events.map(said)).toEqual(EXPECTED);
    expect(events.every((e) => e.run_id === "run-1")).toBe(true);
    // The events come first; the result comes last and once as the final one.
    const final = results.filter((p) => !p.preliminary);
    expect(final).toHaveLength(1);
    expect(results.at(-1)).toBe(final[0]);
    const answer = final[0]?.output as { status: string; data: { outputs: Record<string, string> } };
    expect(answer.status).toBe("success");
    expect(answer.data.outputs.verdict).toBe("verdict: risks: read: release/2.0");
    expect(await result.text).toBe("Ship it.");

    // The model reads the run's result, and none of the step events.
    const next = JSON.stringify(model.calls[1]?.prompt);
    expect(next).toContain("verdict: risks: read: release/2.0");
    expect(next).not.toContain("skillshelf-workflow");
  });

  it("the UI message stream carries the steps as preliminary tool outputs of that call", async () => {
    const result = streamText({
      model: startsTheRun(),
      messages,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages }),
    });
    const chunks: Array<{ type: string; output?: unknown; preliminary?: boolean; toolCallId?: string }> = [];
    for await (const chunk of toUIMessageStream({ stream: result.stream })) chunks.push(chunk as never);
    const outputs = chunks.filter((c) => c.type === "tool-output-available");
    const steps = outputs.filter((c) => c.preliminary && isStepEvent(c.output)).map((c) => c.output as Event);
    expect(steps.map(said)).toEqual(EXPECTED);
    expect(new Set(outputs.map((c) => c.toolCallId)).size).toBe(1);
    expect(outputs.at(-1)?.preliminary).not.toBe(true);
  });

  it("a consumer that stops reading mid-run fails neither the run nor its checkpoint", async () => {
    const result = streamText({
      model: startsTheRun(),
      messages,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages }),
    });
    for await (const part of result.stream) {
      if (part.type === "tool-result" && part.preliminary) break;
    }
    // The same run asked for again waits for the first one (its lock) and reads its checkpoint:
    // every step ran once, to the end, though nobody read the stream any more.
    const again = await generateText({
      model: startsTheRun(),
      messages,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages }),
    });
    const answer = again.steps.flatMap((s) => s.toolResults)[0]?.output as {
      status: string;
      data: { outputs: Record<string, string> };
    };
    expect(answer.status).toBe("success");
    expect(answer.data.outputs.verdict).toBe("verdict: risks: read: release/2.0");
    expect(fixture.stepsRun).toEqual(WORKFLOW_STEPS);
  });

  it("generateText still answers with the run's result alone", async () => {
    const model = startsTheRun();
    const result = await generateText({
      model,
      messages,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages }),
    });
    const toolResults = result.steps.flatMap((s) => s.toolResults);
    expect(toolResults).toHaveLength(1);
    const answer = toolResults[0]?.output as { status: string; data: { steps: Array<{ id: string }> } };
    expect(answer.status).toBe("success");
    expect(answer.data.steps.map((s) => s.id)).toEqual(WORKFLOW_STEPS);
    expect(result.text).toBe("Ship it.");
  });

  it("a skill call that starts no run answers as before, with no preliminary result", async () => {
    const notes: ModelMessage[] = [{ role: "user", content: "write the release notes" }];
    const model = scriptedModel((_call, i) =>
      i === 0 ? { toolCalls: [{ name: "skill_release-notes", input: {} }] } : { text: "Notes." },
    );
    const result = streamText({
      model,
      messages: notes,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages: notes }),
    });
    const parts: TextStreamPart<ToolSet>[] = [];
    for await (const part of result.stream) parts.push(part);
    expect(parts.filter((p) => p.type === "tool-result").map((p) => p.toolName)).toEqual([
      "skill_release-notes",
    ]);
    expect(parts.some((p) => p.type === "tool-result" && p.preliminary)).toBe(false);
  });
});
