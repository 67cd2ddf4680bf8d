import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import { describe, expect, it } from "vitest";
import { readConversation, toHistory } from "./history.js";

let n = 0;
function message(role: MastraDBMessage["role"], parts: MastraDBMessage["content"]["parts"]): MastraDBMessage {
  return { id: `m${++n}`, role, createdAt: new Date(), content: { format: 2, parts } };
}

const thread: MastraDBMessage[] = [
  message("user", [{ type: "text", text: "review this contract" }]),
  message("assistant", [
    { type: "step-start" },
    {
      type: "tool-invocation",
      toolInvocation: {
        state: "result",
        toolCallId: "c1",
        toolName: "skill_review-contract",
        args: {},
        result: { status: "success", data: { name: "review-contract" }, message: "ok" },
      },
    },
    {
      type: "tool-invocation",
      toolInvocation: {
        state: "output-error",
        toolCallId: "c2",
        toolName: "web_search",
        args: { q: "x" },
        errorText: 'Tool "web_search" not found.',
      },
    },
    { type: "text", text: "Send me the file." },
  ]),
  message("user", [
    { type: "text", text: "/rename-symbol a" },
    { type: "text", text: "b" },
  ]),
];

describe("Mastra messages as core history", () => {
  it("keeps user text and the tool calls that produced a result", () => {
    expect(toHistory(thread)).toEqual([
      { kind: "user", text: "review this contract" },
      {
        kind: "tool-call",
        toolName: "skill_review-contract",
        input: {},
        output: { status: "success", data: { name: "review-contract" }, message: "ok" },
      },
      { kind: "user", text: "/rename-symbol a\nb" },
    ]);
  });

  it("names the latest user message for the plan and leaves it in the history", () => {
    const { history, message: latest } = readConversation(thread);
    expect(latest).toBe("/rename-symbol a\nb");
    expect(history.at(-1)).toEqual({ kind: "user", text: "/rename-symbol a\nb" });
    expect(readConversation(thread.slice(0, 2)).message).toBe("review this contract");
  });

  it("has no latest message when the run has no user message", () => {
    expect(readConversation([])).toEqual({ history: [], message: undefined });
    expect(readConversation(thread.slice(1, 2)).message).toBeUndefined();
  });

  it("skips system and signal messages", () => {
    expect(toHistory([message("system", [{ type: "text", text: "x" }])])).toEqual([]);
  });
});
