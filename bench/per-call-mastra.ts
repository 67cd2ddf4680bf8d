/**
 * Mastra for the per-call benchmark: an `Agent` with the host tools and Mastra's own mock
 * model (`MastraLanguageModelV2Mock`), `agent.generate(messages)`; with a shelf, the same
 * agent with `inputProcessors: [createSkills({ shelf }).processor]` (its defaults).
 */
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { Processor } from "@mastra/core/processors";
import { MastraLanguageModelV2Mock } from "@mastra/core/test-utils/llm-mock";
import { createTool } from "@mastra/core/tools";
import { createSkills } from "@skillshelf/mastra";
import { type CreateHarness, type Harness, HOST_TOOLS, type Step, scriptQueue } from "./per-call-script.ts";

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

let callIds = 0;

function content(step: Step) {
  if ("text" in step) return [{ type: "text" as const, text: step.text }];
  return step.calls.map((call) => ({
    type: "tool-call" as const,
    toolCallId: `call-${++callIds}`,
    toolName: call.name,
    input: JSON.stringify(call.input),
  }));
}

const finishReason = (step: Step) => ("text" in step ? ("stop" as const) : ("tool-calls" as const));

export const createHarness: CreateHarness = async (shelf) =>
  harnessWith(shelf ? [createSkills({ shelf }).processor] : []);

/** The same agent with any input processors (per-call-hooks.bench.ts times the framework's hooks alone). */
export function harnessWith(inputProcessors: readonly Processor[]): Harness {
  const queue = scriptQueue();
  const model = new MastraLanguageModelV2Mock({
    doGenerate: async () => {
      const step = queue.next();
      return { content: content(step), finishReason: finishReason(step), usage, warnings: [] };
    },
    doStream: async () => {
      const step = queue.next();
      const parts: unknown[] = [{ type: "stream-start", warnings: [] }];
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
  } as ConstructorParameters<typeof MastraLanguageModelV2Mock>[0]);
  const tools = Object.fromEntries(
    HOST_TOOLS.map((host) => [
      host.name,
      createTool({
        id: host.name,
        description: host.description,
        inputSchema: host.schema,
        execute: async (input: Record<string, unknown>) => host.run(input),
      }),
    ]),
  );
  const agent = new Agent({
    id: "assistant",
    name: "Assistant",
    instructions: "You are a helpful assistant.",
    model: model as unknown as MastraModelConfig,
    tools,
    inputProcessors: [...inputProcessors],
  });
  return {
    async turn(conversation, script) {
      queue.load(script);
      await agent.generate(
        conversation.map((m) => ({ role: m.role, content: m.text })),
        { maxSteps: 10 },
      );
      // The mock keeps every call it received; a long benchmark must not grow it.
      model.doGenerateCalls.length = 0;
      model.doStreamCalls.length = 0;
    },
  };
}
