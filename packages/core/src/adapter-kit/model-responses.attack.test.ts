/**
 * A model that repeats a tool-call id within one response: every call the framework and the
 * session see must have an id of its own, on the generate path and in a stream (where the
 * streamed input parts must keep naming the call they belong to).
 */
import { describe, expect, it } from "vitest";
import type { Session, ToolCall } from "../types.js";
import { respondingModel } from "./model-responses.js";
import { toolResultPairing } from "./tool-results.js";

function recordingSession() {
  const responded: ToolCall[][] = [];
  return {
    session: { respond: (calls: ToolCall[]) => responded.push(calls) } as unknown as Session,
    responded,
  };
}

const call = (toolCallId: string, toolName: string) => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input: "{}",
});

describe("respondingModel: repeated tool-call ids", () => {
  it("doGenerate: each call gets an id of its own; the first use keeps the model's", async () => {
    const { session, responded } = recordingSession();
    const model = respondingModel(
      {
        doGenerate: async () => ({
          content: [
            call("x", "skill_a"),
            call("x", "send_email"),
            call("x_2", "b"),
            call("y", "c"),
            call("x", "d"),
          ],
        }),
      },
      session,
    );
    const result = (await model.doGenerate()) as { content: Array<{ toolCallId: string }> };
    const ids = result.content.map((p) => p.toolCallId);
    expect(ids[0]).toBe("x");
    expect(ids[3]).toBe("y");
    expect(new Set(ids).size).toBe(ids.length);
    expect(responded[0]?.map((c) => c.id)).toEqual(ids);
  });

  it("an id the conversation already holds is a repeat too (Mastra's memory merges calls by id)", async () => {
    const { session, responded } = recordingSession();
    const prompt = [
      { role: "user", content: [{ type: "text", text: "read it" }] },
      { role: "assistant", content: [call("call_1", "skill_reader")] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "skill_reader", output: {} }],
      },
    ];
    const generate = respondingModel(
      {
        doGenerate: async (_options: unknown) => ({
          content: [call("call_1", "read_file"), call("call_2", "b")],
        }),
      },
      session,
    );
    const result = (await generate.doGenerate({ prompt })) as { content: Array<{ toolCallId: string }> };
    expect(result.content.map((p) => p.toolCallId)).toEqual(["call_1_1", "call_2"]);
    expect(responded[0]?.map((c) => c.id)).toEqual(["call_1_1", "call_2"]);

    const stream = respondingModel(
      {
        doStream: async (_options: unknown) => ({
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue({ type: "tool-input-start", id: "call_1", toolName: "read_file" });
              controller.enqueue({ type: "tool-input-end", id: "call_1" });
              controller.enqueue(call("call_1", "read_file"));
              controller.enqueue({ type: "finish" });
              controller.close();
            },
          }),
        }),
      },
      session,
    );
    const { stream: out } = (await stream.doStream({ prompt })) as {
      stream: ReadableStream<{ id?: string; toolCallId?: string }>;
    };
    const ids: string[] = [];
    for await (const part of out) ids.push(part.toolCallId ?? part.id ?? "-");
    expect(ids).toEqual(["call_1_1", "call_1_1", "call_1_1", "-"]);
  });

  it("doStream: the calls and their streamed input parts agree on the new ids", async () => {
    const { session, responded } = recordingSession();
    const parts = [
      { type: "stream-start" },
      { type: "tool-input-start", id: "x", toolName: "skill_a" },
      { type: "tool-input-delta", id: "x", delta: "{}" },
      { type: "tool-input-end", id: "x" },
      { type: "tool-input-start", id: "x", toolName: "send_email" },
      { type: "tool-input-delta", id: "x", delta: "{}" },
      { type: "tool-input-end", id: "x" },
      call("x", "skill_a"),
      call("x", "send_email"),
      { type: "finish" },
    ];
    const model = respondingModel(
      {
        doStream: async () => ({
          stream: new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        }),
      },
      session,
    );
    const { stream } = (await model.doStream()) as { stream: ReadableStream<Record<string, unknown>> };
    const out: Array<Record<string, unknown>> = [];
    for await (const part of stream as unknown as AsyncIterable<Record<string, unknown>>) out.push(part);
    const inputIds = out.filter((p) => p.type === "tool-input-start").map((p) => p.id);
    const callIds = out.filter((p) => p.type === "tool-call").map((p) => p.toolCallId);
    expect(callIds).toEqual(["x", "x_2"]);
    expect(inputIds).toEqual(callIds);
    expect(out.filter((p) => p.type === "tool-input-end").map((p) => p.id)).toEqual(callIds);
    expect(responded[0]?.map((c) => `${c.id}:${c.name}`)).toEqual(["x:skill_a", "x_2:send_email"]);
  });
});

/** A model answering `doGenerate` with its content and that response as a stream too (Mastra's model classes). */
function contentAndStream(content: unknown[], streamed: unknown[]) {
  return {
    doGenerate: async () => ({
      content,
      stream: new ReadableStream({
        start(controller) {
          for (const part of streamed) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  };
}

async function read(stream: ReadableStream<unknown>): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for await (const part of stream as unknown as AsyncIterable<Record<string, unknown>>) out.push(part);
  return out;
}

const streamedCall = (id: string, name: string) => [
  { type: "tool-input-start", id, toolName: name },
  { type: "tool-input-delta", id, delta: "{}" },
  { type: "tool-input-end", id },
  call(id, name),
];

describe("respondingModel: a doGenerate result that carries its stream as well", () => {
  it("the stream's calls and input parts take the content's new ids", async () => {
    const { session, responded } = recordingSession();
    const content = [call("dup", "activate_skill"), call("dup", "send_email")];
    const model = respondingModel(
      contentAndStream(content, [
        { type: "stream-start" },
        ...streamedCall("dup", "activate_skill"),
        ...streamedCall("dup", "send_email"),
        { type: "finish" },
      ]),
      session,
    );
    const result = (await model.doGenerate()) as { stream: ReadableStream<unknown> };
    const out = await read(result.stream);
    const callIds = out.filter((p) => p.type === "tool-call").map((p) => p.toolCallId);
    expect(callIds).toEqual(["dup", "dup_2"]);
    expect(out.filter((p) => p.type === "tool-input-start").map((p) => p.id)).toEqual(callIds);
    expect(out.filter((p) => p.type === "tool-input-end").map((p) => p.id)).toEqual(callIds);
    expect(responded).toHaveLength(1);
    expect(responded[0]?.map((c) => `${c.id}:${c.name}`)).toEqual(["dup:activate_skill", "dup_2:send_email"]);
  });

  it("a stream call that is not the judged call at its place fails the stream (fail closed)", async () => {
    const { session } = recordingSession();
    const model = respondingModel(
      contentAndStream(
        [call("dup", "activate_skill"), call("dup", "read_file")],
        [...streamedCall("dup", "activate_skill"), ...streamedCall("dup", "send_email"), { type: "finish" }],
      ),
      session,
    );
    const result = (await model.doGenerate()) as { stream: ReadableStream<unknown> };
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const part of result.stream as unknown as AsyncIterable<unknown>) seen.push(part);
      })(),
    ).rejects.toThrow(/differs from the calls judged/);
    expect(
      seen.some(
        (p) =>
          (p as { toolName?: string }).toolName === "send_email" &&
          (p as { type?: string }).type === "tool-call",
      ),
    ).toBe(false);
  });
});

describe("toolResultPairing", () => {
  it("a result goes to the oldest waiting call with its id and tool", () => {
    const pairing = toolResultPairing();
    const a = { kind: "tool-call" as const, id: "x", toolName: "skill_a", input: {} };
    const b = { kind: "tool-call" as const, id: "x", toolName: "send_email", input: {} };
    pairing.call(a);
    pairing.call(b);
    // Results in completion order: the blocked call answered first.
    expect(pairing.result("x", "send_email", "blocked")).toBe(true);
    expect(pairing.result("x", "skill_a", "activated")).toBe(true);
    expect(pairing.result("x", "skill_a", "again")).toBe(false);
    expect([a, b].map((item) => (item as { output?: unknown }).output)).toEqual(["activated", "blocked"]);
  });

  it("a result that names no tool takes the oldest call of its id; a later call of the same id waits for its own", () => {
    const pairing = toolResultPairing();
    const first = { kind: "tool-call" as const, id: "call_0", toolName: "skill_a", input: {} };
    pairing.call(first);
    pairing.result("call_0", undefined, "one");
    const second = { kind: "tool-call" as const, id: "call_0", toolName: "send_email", input: {} };
    pairing.call(second);
    pairing.result("call_0", undefined, "two");
    expect([first, second].map((item) => (item as { output?: unknown }).output)).toEqual(["one", "two"]);
  });
});
