/**
 * A `context: fork` skill's sub-agent in LangChain: a `createAgent` built only from core's
 * Fork — its instructions, those of the agent's tools it was given, its step limit — run on
 * its task alone. Every tool call it makes is judged by `fork.guard` first (a tool it was
 * not given, a write into a skill folder), as the parent's calls are by the middleware.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Fork } from "@skillshelf/core";
import { type CreateAgentParams, createAgent, createMiddleware, modelCallLimitMiddleware } from "langchain";
import { resultMessage } from "./skill-tools.js";
import { type AnyTool, toolName } from "./tool-name.js";

export interface ForkAgentOptions {
  /** The agent's tools: the sub-agent gets those the fork names. */
  tools: readonly AnyTool[];
  model: CreateAgentParams["model"];
  signal?: AbortSignal;
}

/** Resolves with the sub-agent's final text. */
export async function runForkAgent(fork: Fork, options: ForkAgentOptions): Promise<string> {
  const given = new Set(fork.tools);
  const agent = createAgent({
    model: options.model,
    systemPrompt: fork.instructions,
    tools: options.tools.filter((t) => given.has(toolName(t))),
    middleware: [
      createMiddleware({
        name: "skillshelf-fork",
        wrapToolCall: async (request, handler) => {
          const { toolCall } = request;
          const verdict = fork.guard({ name: toolCall.name, input: toolCall.args });
          if (!verdict.allowed) return resultMessage(verdict.result, toolCall.id ?? "", toolCall.name);
          return handler(request);
        },
      }),
      // Core's step limit, counted as model calls (LangGraph's recursionLimit counts graph nodes).
      modelCallLimitMiddleware({ runLimit: fork.maxSteps, exitBehavior: "end" }),
    ],
  });
  const state = await agent.invoke(
    { messages: [new HumanMessage(fork.task)] },
    options.signal ? { signal: options.signal } : {},
  );
  return state.messages.findLast((m) => AIMessage.isInstance(m))?.text ?? "";
}
