import type { ModelMessage, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { lastUserText, toHistory } from "./history.js";

const success = { status: "success", data: { name: "pdf" }, message: "ok" };

describe("toHistory (ModelMessages)", () => {
  it("keeps user text and tool calls in order, with results attached by id", () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "ignored" },
      {
        role: "user",
        content: [
          { type: "text", text: "convert " },
          { type: "text", text: "this" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "sure" },
          { type: "tool-call", toolCallId: "1", toolName: "activate_skill", input: { name: "pdf" } },
          { type: "tool-call", toolCallId: "2", toolName: "read_file", input: { path: "a" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "2",
            toolName: "read_file",
            output: { type: "text", value: "plain" },
          },
          {
            type: "tool-result",
            toolCallId: "1",
            toolName: "activate_skill",
            output: { type: "json", value: success },
          },
        ],
      },
      { role: "user", content: "/pdf now" },
    ];
    expect(toHistory(messages)).toEqual([
      { kind: "user", text: "convert \nthis" },
      { kind: "tool-call", id: "1", toolName: "activate_skill", input: { name: "pdf" }, output: success },
      { kind: "tool-call", id: "2", toolName: "read_file", input: { path: "a" }, output: "plain" },
      { kind: "user", text: "/pdf now" },
    ]);
  });

  it("turns failed and denied calls into structured errors and leaves unanswered calls without output, each with its id", () => {
    const messages: ModelMessage[] = [
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "1", toolName: "a", input: {} },
          { type: "tool-call", toolCallId: "2", toolName: "b", input: {} },
          { type: "tool-call", toolCallId: "3", toolName: "c", input: {} },
          { type: "tool-call", toolCallId: "4", toolName: "d", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "1",
            toolName: "a",
            output: { type: "error-text", value: "boom" },
          },
          { type: "tool-result", toolCallId: "2", toolName: "b", output: { type: "execution-denied" } },
          {
            type: "tool-result",
            toolCallId: "3",
            toolName: "c",
            output: { type: "text", value: '{"status":"success"}' },
          },
        ],
      },
    ];
    const [a, b, c, d] = toHistory(messages);
    expect(a).toMatchObject({ output: { status: "error", message: "boom" } });
    expect(b).toMatchObject({ output: { status: "error", message: "execution denied" } });
    expect(c).toMatchObject({ output: { status: "success" } });
    expect(d).toEqual({ kind: "tool-call", id: "4", toolName: "d", input: {} });
  });
});

describe("toHistory (tool approval)", () => {
  it("answers a call the user denied with the denial before the SDK records it; an approved one stays waiting", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "take notes" },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "1", toolName: "activate_skill", input: { name: "notes" } },
          { type: "tool-call", toolCallId: "2", toolName: "send_email", input: {} },
          { type: "tool-approval-request", approvalId: "ap1", toolCallId: "1" },
          { type: "tool-approval-request", approvalId: "ap2", toolCallId: "2" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-approval-response", approvalId: "ap1", approved: false, reason: "no" },
          { type: "tool-approval-response", approvalId: "ap2", approved: true },
        ],
      },
    ];
    const [, activation, email] = toHistory(messages);
    expect(activation).toMatchObject({ output: { status: "error", message: "no" } });
    expect(email).toEqual({ kind: "tool-call", id: "2", toolName: "send_email", input: {} });
  });
});

describe("toHistory (UIMessages)", () => {
  it("reads static and dynamic tool parts, skipping calls still streaming", () => {
    const messages: UIMessage[] = [
      { id: "u", role: "user", parts: [{ type: "text", text: "convert this" }] },
      {
        id: "a",
        role: "assistant",
        parts: [
          { type: "step-start" },
          {
            type: "tool-activate_skill",
            toolCallId: "1",
            state: "output-available",
            input: { name: "pdf" },
            output: success,
          },
          {
            type: "dynamic-tool",
            toolName: "mcp_search",
            toolCallId: "2",
            state: "output-error",
            input: {},
            errorText: "down",
          },
          { type: "tool-read_file", toolCallId: "3", state: "input-streaming", input: undefined },
          { type: "tool-write_file", toolCallId: "4", state: "input-available", input: { path: "b" } },
          { type: "text", text: "done" },
        ],
      },
    ];
    expect(toHistory(messages)).toEqual([
      { kind: "user", text: "convert this" },
      { kind: "tool-call", id: "1", toolName: "activate_skill", input: { name: "pdf" }, output: success },
      {
        kind: "tool-call",
        id: "2",
        toolName: "mcp_search",
        input: {},
        output: { status: "error", error_type: "TOOL_ERROR", message: "down" },
      },
      { kind: "tool-call", id: "4", toolName: "write_file", input: { path: "b" } },
    ]);
  });
});

describe("lastUserText", () => {
  it("finds the last user message in either shape", () => {
    expect(
      lastUserText([
        { role: "user", content: " first " },
        { role: "assistant", content: "x" },
      ]),
    ).toBe("first");
    expect(
      lastUserText([
        { id: "1", role: "user", parts: [{ type: "text", text: "/pdf a.pdf" }] },
        { id: "2", role: "assistant", parts: [{ type: "text", text: "ok" }] },
      ]),
    ).toBe("/pdf a.pdf");
    expect(lastUserText([])).toBeUndefined();
  });
});
