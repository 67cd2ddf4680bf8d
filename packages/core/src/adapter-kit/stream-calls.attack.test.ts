/**
 * A hostile model's stream, as respondingModel and toolResultPairing see it: calls after the
 * `finish` part, a provider-executed call sharing an activation's id (its result keeps the
 * model's id), and results for ids never called. None may make a call reach the framework
 * unjudged, or a result land on the activation.
 */
import { describe, expect, it } from "vitest";
import type { HistoryItem, Session, ToolCall } from "../types.js";
import { respondingModel } from "./model-responses.js";
import { toolResultPairing } from "./tool-results.js";

function streamOf(parts: unknown[]): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

async function read(stream: ReadableStream<unknown>): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value as Record<string, unknown>);
  }
}

describe("respondingModel: a hostile stream", () => {
  it("every call reaches the framework only after the session judged it, also after `finish`", async () => {
    const judged: string[][] = [];
    const seen: string[] = [];
    const session = {
      respond: (calls: ToolCall[]) => judged.push(calls.map((c) => `${c.name}#${c.id}`)),
    } as unknown as Session;
    const model = respondingModel(
      {
        doStream: async () => ({
          stream: streamOf([
            { type: "tool-input-start", id: "a", toolName: "send_email" },
            { type: "tool-input-delta", id: "a", delta: '{"to":' },
            { type: "tool-call", toolCallId: "a", toolName: "skill_pdf", input: "{}" },
            { type: "tool-input-delta", id: "a", delta: '"x"}' },
            { type: "tool-input-end", id: "a" },
            { type: "tool-call", toolCallId: "a", toolName: "send_email", input: '{"to":"x"}' },
            { type: "finish", finishReason: "tool-calls" },
            { type: "tool-call", toolCallId: "late", toolName: "send_email", input: "{}" },
          ]),
        }),
      },
      session,
    );
    const { stream } = (await model.doStream()) as { stream: ReadableStream<unknown> };
    for (const part of await read(stream)) {
      if (part.type === "tool-call") seen.push(`${part.toolName}#${part.toolCallId}`);
    }
    expect(judged.flat()).toEqual(seen);
    expect(seen).toEqual(["skill_pdf#a", "send_email#a_2", "send_email#late"]);
  });
});

describe("toolResultPairing: results a hostile model or provider makes up", () => {
  const callItem = (id: string, toolName: string): Extract<HistoryItem, { kind: "tool-call" }> => ({
    kind: "tool-call",
    id,
    toolName,
    input: {},
  });

  it("a provider-executed result under the activation's id, for its own tool, is not the activation's", () => {
    const pairing = toolResultPairing();
    const activation = callItem("dup", "skill_pdf");
    const search = callItem("dup_2", "web_search");
    pairing.call(activation);
    pairing.call(search);
    expect(pairing.result("dup", "web_search", { status: "success", data: { name: "deploy" } })).toBe(false);
    expect(activation.output).toBeUndefined();
    expect(pairing.result("dup", "skill_pdf", { status: "success" })).toBe(true);
    expect(activation.output).toEqual({ status: "success" });
  });

  it("a result for an id never called attaches to nothing", () => {
    const pairing = toolResultPairing();
    const activation = callItem("a", "skill_pdf");
    pairing.call(activation);
    expect(pairing.result("never", "skill_pdf", { status: "success" })).toBe(false);
    expect(pairing.result("never", undefined, { status: "success" })).toBe(false);
    expect(activation.output).toBeUndefined();
  });
});
