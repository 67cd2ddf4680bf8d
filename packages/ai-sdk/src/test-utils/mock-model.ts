/**
 * A `MockLanguageModelV4` (from `ai/test`) driven by a script: the script sees each call's
 * options (the tools offered, the prompt with its system messages) and says what the model
 * answers. The same script serves `doGenerate` and `doStream`, so one scenario can be run
 * through `generateText` and `streamText` alike.
 */
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

export type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

export type Turn = { text: string } | { toolCalls: Array<{ name: string; input?: unknown; id?: string }> };
export type Script = (call: CallOptions, index: number) => Turn;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let callIds = 0;

export function scriptedModel(script: Script): MockLanguageModelV4 & { calls: CallOptions[] } {
  const calls: CallOptions[] = [];
  const next = (options: CallOptions) => {
    calls.push(options);
    const turn = script(options, calls.length - 1);
    const toolCalls =
      "toolCalls" in turn
        ? turn.toolCalls.map((call) => ({
            type: "tool-call" as const,
            toolCallId: call.id ?? `call-${++callIds}`,
            toolName: call.name,
            input: JSON.stringify(call.input ?? {}),
          }))
        : [];
    const finishReason = {
      unified: toolCalls.length ? ("tool-calls" as const) : ("stop" as const),
      raw: undefined,
    };
    return { turn, toolCalls, finishReason };
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options): Promise<GenerateResult> => {
      const { turn, toolCalls, finishReason } = next(options);
      return {
        content: "text" in turn ? [{ type: "text", text: turn.text }] : toolCalls,
        finishReason,
        usage,
        warnings: [],
      };
    },
    doStream: async (options): Promise<StreamResult> => {
      const { turn, toolCalls, finishReason } = next(options);
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if ("text" in turn) {
        parts.push({ type: "text-start", id: "t" });
        // Two deltas, so consumers see a real stream.
        const half = Math.ceil(turn.text.length / 2);
        parts.push({ type: "text-delta", id: "t", delta: turn.text.slice(0, half) });
        parts.push({ type: "text-delta", id: "t", delta: turn.text.slice(half) });
        parts.push({ type: "text-end", id: "t" });
      }
      parts.push(...toolCalls, { type: "finish", finishReason, usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return Object.assign(model, { calls });
}

/** The tool names offered on a call. */
export function offeredTools(call: CallOptions | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

/** All system text of a call (instructions arrive as `role: "system"` prompt messages). */
export function systemText(call: CallOptions | undefined): string {
  return (call?.prompt ?? [])
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n\n");
}

export function systemMessageCount(call: CallOptions | undefined): number {
  return (call?.prompt ?? []).filter((message) => message.role === "system").length;
}

/** Is this one of skillshelf's own tools (activation, end, file reader, scripts), not a host tool? */
export function isSkillshelfTool(name: string): boolean {
  return (
    name.startsWith("skill_") ||
    ["activate_skill", "end_skill", "read_skill_file", "run_skill_script"].includes(name)
  );
}
