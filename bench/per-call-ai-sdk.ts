/**
 * The AI SDK for the per-call benchmark, as a route uses it: per request `generateText` (or
 * `streamText`, read to the end) with the route's `messages`, the host tools and a step limit,
 * on the SDK's own mock model (`MockLanguageModelV4` from `ai/test`); with a shelf, the same
 * call with `...skills.wrap({ tools })` from `createSkills({ shelf })` (its defaults).
 */
import { createSkills } from "@skillshelf/ai-sdk";
import { generateText, isStepCount, type ModelMessage, streamText, type ToolSet, tool } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { type CreateHarness, HOST_TOOLS, type Step, scriptQueue } from "./per-call-script.ts";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let callIds = 0;

function toolCallsOf(step: Step) {
  if ("text" in step) return [];
  return step.calls.map((call) => ({
    type: "tool-call" as const,
    toolCallId: `call-${++callIds}`,
    toolName: call.name,
    input: JSON.stringify(call.input),
  }));
}

function finishReason(step: Step) {
  return { unified: "text" in step ? ("stop" as const) : ("tool-calls" as const), raw: undefined };
}

export function harnessFor(mode: "generate" | "stream"): CreateHarness {
  return async (shelf) => {
    const queue = scriptQueue();
    const model = new MockLanguageModelV4({
      doGenerate: async (): Promise<GenerateResult> => {
        const step = queue.next();
        return {
          content: "text" in step ? [{ type: "text", text: step.text }] : toolCallsOf(step),
          finishReason: finishReason(step),
          usage,
          warnings: [],
        };
      },
      doStream: async () => {
        const step = queue.next();
        const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
        if ("text" in step) {
          parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: step.text });
          parts.push({ type: "text-end", id: "t" });
        } else parts.push(...toolCallsOf(step));
        parts.push({ type: "finish", finishReason: finishReason(step), usage });
        return { stream: convertArrayToReadableStream(parts) };
      },
    });
    const tools: ToolSet = Object.fromEntries(
      HOST_TOOLS.map((host) => [
        host.name,
        tool({
          description: host.description,
          inputSchema: host.schema,
          execute: async (input: Record<string, unknown>) => host.run(input),
        }),
      ]),
    );
    const skills = shelf ? await createSkills({ shelf }) : undefined;
    return {
      async turn(conversation, script) {
        queue.load(script);
        const messages: ModelMessage[] = conversation.map((m) => ({ role: m.role, content: m.text }));
        const options = {
          model,
          instructions: "You are a helpful assistant.",
          messages,
          stopWhen: isStepCount(10),
          ...(skills ? skills.wrap({ tools }) : { tools }),
        };
        if (mode === "generate") await generateText(options);
        else await streamText(options).consumeStream();
        // The mock keeps every call it received; a long benchmark must not grow it.
        model.doGenerateCalls.length = 0;
        model.doStreamCalls.length = 0;
      },
    };
  };
}
