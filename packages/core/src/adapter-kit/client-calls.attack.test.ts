/**
 * Client tools (the caller runs them; the framework checks nothing): a call of one that the
 * session refuses once it has the whole response must not reach the caller. By default it is
 * taken out of the response; with `answerRefused` it stays and the adapter gets core's refusal
 * to answer it with (the model then reads it).
 */
import { describe, expect, it } from "vitest";
import type { Session, ToolCall } from "../types.js";
import { respondingModel } from "./model-responses.js";

/** A session that refuses `pay_invoice` once a response activated something. */
function session() {
  let active = false;
  const blocked: string[] = [];
  const stub = {
    respond: (calls: ToolCall[]) => {
      if (calls.some((c) => c.name === "skill_notes")) active = true;
    },
    guard: (call: ToolCall) => {
      if (!active || call.name !== "pay_invoice") return { allowed: true };
      blocked.push(call.id ?? "");
      return { allowed: false, result: { status: "error", error_type: "TOOL_NOT_ALLOWED", message: "no" } };
    },
  };
  return { session: stub as unknown as Session, blocked };
}

const call = (toolCallId: string, toolName: string) => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input: "{}",
});
const response = () => ({
  content: [call("a", "skill_notes"), call("b", "pay_invoice"), call("c", "confirm")],
});
const clientTools = ["pay_invoice", "confirm"];

describe("respondingModel: client calls the response's own activation rules out", () => {
  it("are taken out of the response by default (reported once)", async () => {
    const { session: s, blocked } = session();
    const model = respondingModel({ doGenerate: async (_o: unknown) => response() }, s, { clientTools });
    const out = (await model.doGenerate({})) as { content: Array<{ toolCallId: string }> };
    expect(out.content.map((p) => p.toolCallId)).toEqual(["a", "c"]);
    expect(blocked).toEqual(["b"]);
  });

  it("stay, with core's refusal handed to the adapter, when it can answer them itself", async () => {
    const { session: s, blocked } = session();
    const answered: Array<[string | undefined, unknown]> = [];
    const model = respondingModel({ doGenerate: async (_o: unknown) => response() }, s, {
      clientTools,
      answerRefused: (c, refusal) => answered.push([c.id, refusal]),
    });
    const out = (await model.doGenerate({})) as { content: Array<{ toolCallId: string }> };
    expect(out.content.map((p) => p.toolCallId)).toEqual(["a", "b", "c"]);
    expect(answered).toEqual([["b", expect.objectContaining({ error_type: "TOOL_NOT_ALLOWED" })]]);
    expect(blocked).toEqual(["b"]);
  });
});
