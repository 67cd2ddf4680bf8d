/**
 * A `context: fork` skill's sub-agent in Mastra: an `Agent` built only from core's Fork —
 * its instructions, those of the run's tools it was given, its step limit — run on its task
 * alone. Every tool call it makes is judged by `fork.guard` before it runs (a write into a
 * skill folder, a tool the conversation rules out), as the parent's are by the processor.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { Fork } from "@skillshelf/core";
import { answeringUnknownTools, subAgentUnknownTool } from "@skillshelf/core/adapter";

export interface ForkAgentOptions {
  /** The run's own tools, unwrapped: the sub-agent gets those the fork names. */
  tools: Record<string, unknown>;
  model: MastraModelConfig;
  abortSignal?: AbortSignal;
}

type StepTool = { execute?: (input: unknown, context: unknown) => unknown };

function guarded(fork: Fork, name: string, tool: unknown): unknown {
  const execute = (tool as StepTool | undefined)?.execute;
  if (typeof execute !== "function") return undefined;
  return {
    ...(tool as object),
    execute: async (input: unknown, context: unknown) => {
      const verdict = fork.guard({ name, input });
      if (!verdict.allowed) return verdict.result;
      return execute.call(tool, input, context);
    },
  };
}

/** Resolves with the sub-agent's final text. */
export async function runForkAgent(fork: Fork, options: ForkAgentOptions): Promise<string> {
  const tools: Record<string, unknown> = {};
  for (const name of fork.tools) {
    const tool = guarded(fork, name, options.tools[name]);
    if (tool) tools[name] = tool;
  }
  const agent = new Agent({
    id: fork.skill,
    name: fork.skill,
    instructions: fork.instructions,
    model: options.model,
    // biome-ignore lint/suspicious/noExplicitAny: the run's own tools, passed through with a guard.
    tools: tools as any,
    defaultOptions: { maxSteps: fork.maxSteps },
    // A call of a tool it was not given reads the fork's refusal, as in every framework.
    inputProcessors: [
      {
        id: "skillshelf-fork",
        processInputStep: (args) => ({ model: answeringUnknownTools(args.model, subAgentUnknownTool(fork)) }),
      },
    ],
  });
  const result = await agent.generate(fork.task, {
    maxSteps: fork.maxSteps,
    ...(options.abortSignal && { abortSignal: options.abortSignal }),
  });
  return result.text;
}
