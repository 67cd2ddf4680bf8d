import { describe, expect, it } from "vitest";
import { isFrameworkUnknownToolText, unknownTool, withUnknownToolsAnswered } from "./unknown-tools.js";

const toolMessage = (toolName: string, output: unknown) => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: "c1", toolName, output }],
});
const answerOf = (prompt: unknown) =>
  ((prompt as Array<{ content: Array<{ output: unknown }> }>)[0]?.content[0]?.output ?? null) as {
    type: string;
    value: unknown;
  };

describe("unknownTool", () => {
  it("names only the tool the model called, and cuts a long name", () => {
    expect(unknownTool("frobnicate")).toEqual({
      status: "error",
      error_type: "UNKNOWN_TOOL",
      message:
        'There is no tool named "frobnicate". Use only the tools you are offered now, by their exact names.',
    });
    expect(unknownTool("x".repeat(10_000)).message.length).toBeLessThan(250);
  });
});

describe("isFrameworkUnknownToolText", () => {
  it("knows each framework's wording", () => {
    expect(
      isFrameworkUnknownToolText(
        "AI_NoSuchToolError: Model tried to call unavailable tool 'x'. Available tools: a, send_email.",
      ),
    ).toBe(true);
    expect(isFrameworkUnknownToolText('Tool "x" not found. Available tools: a, send_email.')).toBe(true);
    expect(isFrameworkUnknownToolText("Error: x is not a valid tool, try one of [a, send_email].")).toBe(
      true,
    );
  });
  it("does not take a tool's own error for one", () => {
    expect(isFrameworkUnknownToolText("ENOENT: no such file or directory, open 'notes.md'")).toBe(false);
    expect(isFrameworkUnknownToolText('the report says: Tool "x" not found. ')).toBe(false);
    expect(isFrameworkUnknownToolText({ error: 'Tool "x" not found. ' })).toBe(false);
  });
});

describe("withUnknownToolsAnswered", () => {
  const registered = new Set(["read_file", "send_email", "skill_release-notes"]);

  it("answers an error for a tool the step does not have, whatever its words", () => {
    const prompt = [toolMessage("frobnicate", { type: "error-text", value: "anything at all" })];
    expect(answerOf(withUnknownToolsAnswered(prompt, registered))).toEqual({
      type: "json",
      value: unknownTool("frobnicate"),
    });
  });

  it("answers a framework's unknown-tool words for a name registered since", () => {
    const prompt = [
      toolMessage("skill_release-notes", {
        type: "error-text",
        value:
          "AI_NoSuchToolError: Model tried to call unavailable tool 'skill_release-notes'. Available tools: send_email.",
      }),
    ];
    expect(answerOf(withUnknownToolsAnswered(prompt, registered))?.value).toEqual(
      unknownTool("skill_release-notes"),
    );
  });

  it("leaves a registered tool's own errors and results alone, and returns the same prompt", () => {
    const prompt = [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      toolMessage("read_file", { type: "error-text", value: "ENOENT: no such file" }),
      toolMessage("send_email", { type: "json", value: { error_type: "TOOL_NOT_ALLOWED" } }),
      toolMessage("gone_tool", { type: "json", value: { ok: true } }),
    ];
    expect(withUnknownToolsAnswered(prompt, registered)).toBe(prompt);
  });

  it("keeps the other parts of a message and never touches the input", () => {
    const prompt = [
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "a",
            toolName: "read_file",
            output: { type: "text", value: "ok" },
          },
          {
            type: "tool-result",
            toolCallId: "b",
            toolName: "nope",
            output: { type: "error-json", value: {} },
          },
        ],
      },
    ];
    const before = JSON.stringify(prompt);
    const out = withUnknownToolsAnswered(prompt, registered) as typeof prompt;
    expect(JSON.stringify(prompt)).toBe(before);
    expect(out[0]?.content[0]).toBe(prompt[0]?.content[0]);
    expect(out[0]?.content[1]?.output).toEqual({ type: "json", value: unknownTool("nope") });
  });

  it("passes through what is not a prompt", () => {
    expect(withUnknownToolsAnswered(undefined, registered)).toBeUndefined();
    expect(withUnknownToolsAnswered("text", registered)).toBe("text");
  });
});
