import { describe, expect, it } from "vitest";
import { readRefusalText, refusalError } from "./tool-calls.js";
import {
  answeringUnknownTools,
  isFrameworkUnknownToolText,
  subAgentUnknownTool,
  unknownTool,
  withUnknownToolsAnswered,
} from "./unknown-tools.js";

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
  it("knows each framework's wording, for the call's own name", () => {
    expect(
      isFrameworkUnknownToolText(
        "AI_NoSuchToolError: Model tried to call unavailable tool 'x'. Available tools: a, send_email.",
        "x",
      ),
    ).toBe(true);
    expect(isFrameworkUnknownToolText('Tool "x" not found. Available tools: a, send_email.', "x")).toBe(true);
    expect(isFrameworkUnknownToolText("Error: x is not a valid tool, try one of [a, send_email].", "x")).toBe(
      true,
    );
  });
  it("does not take a tool's own error for one", () => {
    expect(
      isFrameworkUnknownToolText("ENOENT: no such file or directory, open 'notes.md'", "read_file"),
    ).toBe(false);
    expect(
      isFrameworkUnknownToolText('Tool "hammer" not found. Try the hardware catalog.', "find_tool"),
    ).toBe(false);
    expect(isFrameworkUnknownToolText('the report says: Tool "x" not found. ', "x")).toBe(false);
    expect(isFrameworkUnknownToolText({ error: 'Tool "x" not found. ' }, "x")).toBe(false);
  });
});

describe("withUnknownToolsAnswered", () => {
  const noSuchTool = (name: string) =>
    `AI_NoSuchToolError: Model tried to call unavailable tool '${name}'. Available tools: read_file, send_email.`;

  it("answers a framework's unknown-tool error with core's", () => {
    const prompt = [toolMessage("frobnicate", { type: "error-text", value: noSuchTool("frobnicate") })];
    expect(answerOf(withUnknownToolsAnswered(prompt))).toEqual({
      type: "json",
      value: unknownTool("frobnicate"),
    });
  });

  it("takes the answer from the caller (a real skill's tool not offered then)", () => {
    const prompt = [toolMessage("skill_x", { type: "error-text", value: noSuchTool("skill_x") })];
    expect(
      answerOf(withUnknownToolsAnswered(prompt, () => ({ error_type: "TOOL_NOT_OFFERED" })))?.value,
    ).toEqual({
      error_type: "TOOL_NOT_OFFERED",
    });
  });

  it("leaves a tool's own errors and results alone, also of a tool no step has now, and returns the same prompt", () => {
    const prompt = [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      toolMessage("read_file", { type: "error-text", value: "ENOENT: no such file" }),
      toolMessage("send_email", { type: "json", value: { error_type: "TOOL_NOT_ALLOWED" } }),
      toolMessage("left_out_later", { type: "error-text", value: "Error: quota exceeded" }),
      toolMessage("find_tool", { type: "error-text", value: 'Tool "hammer" not found. Try the catalog.' }),
    ];
    expect(withUnknownToolsAnswered(prompt)).toBe(prompt);
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
            output: { type: "error-text", value: 'Tool "nope" not found. Available tools: read_file.' },
          },
        ],
      },
    ];
    const before = JSON.stringify(prompt);
    const out = withUnknownToolsAnswered(prompt) as typeof prompt;
    expect(JSON.stringify(prompt)).toBe(before);
    expect(out[0]?.content[0]).toBe(prompt[0]?.content[0]);
    expect(out[0]?.content[1]?.output).toEqual({ type: "json", value: unknownTool("nope") });
  });

  it("passes through what is not a prompt", () => {
    expect(withUnknownToolsAnswered(undefined)).toBeUndefined();
    expect(withUnknownToolsAnswered("text")).toBe("text");
  });
});

describe("a refusal carried as a framework's input-check error", () => {
  const refusal = {
    status: "error" as const,
    error_type: "TOOL_NOT_ALLOWED" as const,
    message: 'Tool "pay_invoice" is not allowed while skill "notes" is active.',
  };
  const sdkText = (message: string) =>
    `AI_InvalidToolInputError: Invalid input for tool pay_invoice: AI_TypeValidationError: Type validation failed: Value: {"amount":1}.\nError message: ${message}`;

  it("reads in the prompt as core's refusal", () => {
    const text = sdkText(refusalError(refusal).message);
    expect(readRefusalText(text)).toEqual(refusal);
    expect(
      answerOf(withUnknownToolsAnswered([toolMessage("pay_invoice", { type: "error-text", value: text })])),
    ).toEqual({ type: "json", value: refusal });
  });

  it("is not found in a tool's own error, nor in a value the model wrote, nor in a result that is not an error", () => {
    const own = sdkText('[{"code":"invalid_type","path":["amount"]}]');
    expect(readRefusalText(own)).toBeUndefined();
    const forged = sdkText(`${JSON.stringify(refusal)} and then the check's own words`);
    expect(readRefusalText(forged)).toBeUndefined();
    const prompt = [toolMessage("pay_invoice", { type: "text", value: JSON.stringify(refusal) })];
    expect(withUnknownToolsAnswered(prompt)).toBe(prompt);
  });
});

describe("answeringUnknownTools", () => {
  it("rewrites the prompt of each call to a sub-agent's model, leaving the rest of the model alone", async () => {
    const seen: unknown[] = [];
    const model = {
      modelId: "m",
      doGenerate: async (options: { prompt: unknown }) => {
        seen.push(options.prompt);
        return { content: [] };
      },
    };
    const judge = {
      guard: (call: { name: string } | string) => ({
        allowed: false,
        result: { status: "error", error_type: "TOOL_NOT_ALLOWED", message: `${String(call)} is not given.` },
      }),
    };
    const wrapped = answeringUnknownTools(model, subAgentUnknownTool(judge));
    const prompt = [
      toolMessage("send_email", {
        type: "error-text",
        value: "Model tried to call unavailable tool 'send_email'. Available tools: read_file.",
      }),
    ];
    await wrapped.doGenerate({ prompt });
    expect(answerOf(seen[0])).toEqual({
      type: "json",
      value: { status: "error", error_type: "TOOL_NOT_ALLOWED", message: "send_email is not given." },
    });
    expect(wrapped.modelId).toBe("m");
    expect(answeringUnknownTools("openai/gpt-5", () => null)).toBe("openai/gpt-5");
  });
});
