import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import { describe, expect, it } from "vitest";
import { latestUserText, toHistory } from "./history.js";

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
  it("keeps user text and every tool call with its id; an output only once the call has one", () => {
    const pending = message("assistant", [
      {
        type: "tool-invocation",
        toolInvocation: { state: "call", toolCallId: "c3", toolName: "Read", args: { path: "a" } },
      },
    ]);
    expect(toHistory([...thread, pending])).toEqual([
      { kind: "user", text: "review this contract" },
      {
        kind: "tool-call",
        id: "c1",
        toolName: "skill_review-contract",
        input: {},
        output: { status: "success", data: { name: "review-contract" }, message: "ok" },
      },
      {
        kind: "tool-call",
        id: "c2",
        toolName: "web_search",
        input: { q: "x" },
        output: { status: "error", error_type: "TOOL_ERROR", message: 'Tool "web_search" not found.' },
      },
      { kind: "user", text: "/rename-symbol a\nb" },
      { kind: "tool-call", id: "c3", toolName: "Read", input: { path: "a" } },
    ]);
  });

  it("names the latest user message's text", () => {
    expect(latestUserText(thread)).toBe("/rename-symbol a\nb");
    expect(latestUserText(thread.slice(0, 2))).toBe("review this contract");
    expect(latestUserText([])).toBe("");
  });

  it("skips system and signal messages", () => {
    expect(toHistory([message("system", [{ type: "text", text: "x" }])])).toEqual([]);
  });
});
