import type { Diagnostic, Generate, Shelf } from "@skillshelf/core";
import type { DemoEventBus } from "../events.js";
import type { DemoTool } from "../tools.js";

export type Framework = "ai-sdk" | "langchain" | "mastra";
export const FRAMEWORKS: readonly Framework[] = ["ai-sdk", "langchain", "mastra"];

/** Which model drives the agents: the offline rules, or a real OpenAI-compatible endpoint. */
export type ModelChoice =
  | { kind: "offline" }
  | { kind: "openai"; apiKey: string; baseURL?: string; model: string };

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

/** OPENAI_API_KEY (+ OPENAI_BASE_URL, SKILLSHELF_MODEL) picks a real model; otherwise the offline one. */
export function modelFromEnv(env: NodeJS.ProcessEnv): ModelChoice {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return { kind: "offline" };
  return {
    kind: "openai",
    apiKey,
    ...(env.OPENAI_BASE_URL?.trim() && { baseURL: env.OPENAI_BASE_URL.trim() }),
    model: env.SKILLSHELF_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
  };
}

/**
 * Who is acting: the lead agent, or the role sub-agent a delegation is running. Runners
 * enter a role around the delegate tool, so every tool call is shown with who made it.
 */
export class AgentScope {
  private readonly stack = ["lead"];
  current(): string {
    return this.stack.at(-1)!;
  }
  async within<T>(role: unknown, run: () => Promise<T>): Promise<T> {
    this.stack.push(typeof role === "string" && role ? role : "sub-agent");
    try {
      return await run();
    } finally {
      this.stack.pop();
    }
  }
}

export interface RunnerContext {
  shelf: Shelf;
  tools: DemoTool[];
  model: ModelChoice;
  bus: DemoEventBus;
  /** The lead agent's own instructions (skills add theirs). */
  instructions: string;
  agents: AgentScope;
  /** Where the adapters' diagnostics go: the demo's bus, not the console in the transcript. */
  onDiagnostic: (diagnostic: Diagnostic) => void;
}

/** One framework's agent team behind the same two calls, so the story runs on any of them. */
export interface FrameworkRunner {
  readonly framework: Framework;
  /** One user message in a conversation (thread); resolves to the lead agent's final answer. */
  send(thread: string, text: string): Promise<string>;
  /** The framework's model as core's `generate`, for the improvement loop. */
  generate: Generate;
}

export const LEAD_INSTRUCTIONS =
  "You lead a small team working in the user's repository. Use a skill when one fits the request, " +
  "delegate self-contained tasks to a sub-agent with the `delegate` tool, and answer concisely.";

/** Sub-agents' step budget, and the lead's (each delegation is one of the lead's steps). */
export const SUB_AGENT_STEPS = 8;
export const LEAD_STEPS = 12;

/** Runs a demo tool and reports the call and its result on the bus, with who called it. */
export async function runRecorded(ctx: RunnerContext, tool: DemoTool, input: unknown): Promise<string> {
  const agent = ctx.agents.current();
  ctx.bus.emit({ type: "tool-call", agent, tool: tool.name, args: input });
  const output = await Promise.resolve()
    .then(() => tool.execute(tool.schema.parse(input)))
    .catch((e: unknown) => `error: ${e instanceof Error ? e.message : String(e)}`);
  ctx.bus.emit({ type: "tool-result", agent, tool: tool.name, args: input, output });
  return output;
}
