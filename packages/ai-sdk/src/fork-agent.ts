/**
 * A `context: fork` skill's sub-agent in the AI SDK: a `ToolLoopAgent` built only from
 * core's Fork — its instructions, those of the host's tools it was given, its step limit —
 * run on its task alone. Every tool call it makes is judged by `fork.guard` before it runs
 * (a write into a skill folder, a tool the conversation rules out), as the parent's are.
 */
import type { Fork } from "@skillshelf/core";
import { answeringUnknownTools, isBlockedResult, subAgentUnknownTool } from "@skillshelf/core/adapter";
import { type LanguageModel, stepCountIs, type Tool, ToolLoopAgent, type ToolSet } from "ai";

export interface ForkAgentOptions {
  /** The host's tools: the sub-agent gets those the fork names. */
  tools: ToolSet;
  model: LanguageModel;
  abortSignal?: AbortSignal;
}

/** The tool with each call judged first by `judge.guard` (a fork's, a delegation's). */
export function guarded(judge: Pick<Fork, "guard">, name: string, tool: Tool): Tool {
  const execute = tool.execute;
  if (!execute) return tool;
  const toModelOutput = tool.toModelOutput;
  return {
    ...tool,
    execute: (input: unknown, options) => {
      const verdict = judge.guard({ name, input });
      return verdict.allowed ? execute(input as never, options) : verdict.result;
    },
    ...(toModelOutput && {
      toModelOutput: (options) =>
        isBlockedResult(options.output) ? { type: "json", value: options.output } : toModelOutput(options),
    }),
  } as Tool;
}

/** Resolves with the sub-agent's final text. */
export async function runForkAgent(fork: Fork, options: ForkAgentOptions): Promise<string> {
  const tools: ToolSet = {};
  for (const name of fork.tools) {
    const tool = options.tools[name];
    if (tool) tools[name] = guarded(fork, name, tool);
  }
  const agent = new ToolLoopAgent({
    // A call of a tool it was not given reads the fork's refusal, as in every framework.
    model: answeringUnknownTools(options.model, subAgentUnknownTool(fork)),
    instructions: fork.instructions,
    tools,
    stopWhen: stepCountIs(fork.maxSteps),
  });
  const result = await agent.generate({
    prompt: fork.task,
    ...(options.abortSignal && { abortSignal: options.abortSignal }),
  });
  return result.text;
}
