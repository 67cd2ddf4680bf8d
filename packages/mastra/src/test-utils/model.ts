/**
 * A scripted MockLanguageModelV4 for Mastra agents: each model call takes the next step of
 * the script, whether it arrives through `doGenerate` (agent.generate) or `doStream`
 * (agent.stream), so one test body can run on both paths.
 */
import type { MastraModelConfig } from "@mastra/core/llm";
import { MockLanguageModelV4 } from "ai/test";

type LanguageModelV4CallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

/**
 * A call is `[toolName, input]` (the id is made up) or an object whose `id` is the script's
 * own: a hostile model chooses its ids, and may repeat one in a response.
 */
export type ScriptCall = [toolName: string, input: unknown] | { id: string; name: string; input?: unknown };
export type ScriptStep = { text: string } | { calls: ScriptCall[] };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

let ids = 0;

function content(step: ScriptStep) {
  if ("text" in step) return [{ type: "text" as const, text: step.text }];
  return step.calls.map((call) => {
    const [toolCallId, toolName, input] = Array.isArray(call)
      ? [`call-${++ids}`, call[0], call[1]]
      : [call.id, call.name, call.input ?? {}];
    return { type: "tool-call" as const, toolCallId, toolName, input: JSON.stringify(input) };
  });
}

function finishReason(step: ScriptStep) {
  return { unified: "text" in step ? ("stop" as const) : ("tool-calls" as const), raw: undefined };
}

export function scriptedModel(script: ScriptStep[]) {
  let next = 0;
  const take = (): ScriptStep => script[next++] ?? { text: "(end of script)" };
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      const step = take();
      return { content: content(step), finishReason: finishReason(step), usage, warnings: [] };
    },
    doStream: async () => {
      const step = take();
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of content(step)) {
        if (part.type === "text") {
          parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text });
          parts.push({ type: "text-end", id: "t" });
        } else parts.push(part);
      }
      parts.push({ type: "finish", finishReason: finishReason(step), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return {
    // Mastra vendors its own copy of the provider types, which drift from `ai`'s by a patch
    // version; at runtime a V4 mock is exactly what Mastra accepts.
    model: model as unknown as MastraModelConfig,
    mock: model,
    /** Every call the model received, in order, whichever path it came through. */
    calls(): LanguageModelV4CallOptions[] {
      return [...model.doGenerateCalls, ...model.doStreamCalls];
    },
  };
}

/** Tool names a model call offered. */
export function toolNames(call: LanguageModelV4CallOptions | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

/** The system messages a model call received, as text. */
export function systemText(call: LanguageModelV4CallOptions | undefined): string[] {
  return (call?.prompt ?? []).filter((m) => m.role === "system").map((m) => m.content as string);
}

/** The output a model call was shown for the (last) call of a tool, from its prompt. */
export function toolOutput(call: LanguageModelV4CallOptions | undefined, toolName: string): unknown {
  const parts = (call?.prompt ?? []).flatMap((m) => (m.role === "tool" ? m.content : []));
  const result = parts.findLast((p) => p.type === "tool-result" && p.toolName === toolName);
  return result && "output" in result ? result.output : undefined;
}
