/**
 * A call to a tool that does not exist. Every framework answers one in words of its own, and
 * all three list every tool they have registered: the AI SDK's `NoSuchToolError`
 * ("… Available tools: …"), Mastra's "Tool … not found. Available tools: …", LangChain's
 * "… is not a valid tool, try one of […]". An adapter keeps the tools an active skill rules
 * out (and the skill tools no step offers now) registered but hidden, so that a call to one
 * reaches core's refusal; those lists then name them to the model, and a vetoed skill's tool
 * with them. So the model reads core's answer instead, the same in every framework, and it
 * names no tool.
 */
import { notOffered } from "../session/messages.js";
import { readRefusalText } from "./tool-calls.js";

/** The longest tool name echoed back (the name is the model's; a hostile one can be long). */
const MAX_ECHOED_NAME = 120;

export interface UnknownToolResult {
  status: "error";
  error_type: "UNKNOWN_TOOL";
  message: string;
}

/** What the model reads for a call that names no tool it has. */
export function unknownTool(toolName: string): UnknownToolResult {
  const name = toolName.length > MAX_ECHOED_NAME ? `${toolName.slice(0, MAX_ECHOED_NAME)}…` : toolName;
  return {
    status: "error",
    error_type: "UNKNOWN_TOOL",
    message: `There is no tool named ${JSON.stringify(name)}. Use only the tools you are offered now, by their exact names.`,
  };
}

/**
 * The frameworks' own texts for a call to a tool they do not have, for that call's name (their
 * current wording; the adapters' tests run at the lowest and the latest versions each peer
 * range allows). Tied to the name, so a tool's own error that happens to read alike (a
 * `find_tool` answering `Tool "hammer" not found.`) is left alone.
 */
function frameworkUnknownToolTexts(toolName: string): readonly string[] {
  return [
    `Model tried to call unavailable tool '${toolName}'.`, // AI SDK, after "AI_NoSuchToolError: " or not
    `AI_NoSuchToolError: Model tried to call unavailable tool '${toolName}'.`,
    `Tool "${toolName}" not found.`, // Mastra
    `Error: ${toolName} is not a valid tool, try one of [`, // LangChain (ToolNode)
  ];
}

/** True when a tool result's text is a framework's "no such tool" error for `toolName`. */
export function isFrameworkUnknownToolText(text: unknown, toolName: string): boolean {
  return (
    typeof text === "string" && frameworkUnknownToolTexts(toolName).some((start) => text.startsWith(start))
  );
}

interface ToolResultPart {
  type: "tool-result";
  toolName: string;
  output?: { type?: string; value?: unknown };
}

function isToolResult(part: unknown): part is ToolResultPart {
  return (
    typeof part === "object" &&
    part !== null &&
    (part as { type?: unknown }).type === "tool-result" &&
    typeof (part as { toolName?: unknown }).toolName === "string"
  );
}

/**
 * Mastra writes a tool name outside `[a-zA-Z0-9_-]` (`send_email `, a look-alike letter, a
 * dot) into the prompt as this placeholder, so its "not found" text no longer carries the
 * part's name: the name the model called is read back from the text itself.
 */
const MASTRA_PLACEHOLDER_NAME = "unknown_tool";
const MASTRA_NOT_FOUND = /^Tool "([\s\S]*)" not found\. Available tools: /;

/**
 * The name the model called, when a tool result in a prompt is a framework's answer to a call
 * of a tool it does not have; else undefined. Judged by the words, not by the step's tools: a
 * tool the host leaves out of a later step (`activeTools`) is not a tool that never existed,
 * and its own errors stay its own.
 */
function unknownToolCalled(part: ToolResultPart): string | undefined {
  const output = part.output;
  if (!output || typeof output.type !== "string") return undefined;
  if (!output.type.startsWith("error") && output.type !== "text") return undefined;
  if (isFrameworkUnknownToolText(output.value, part.toolName)) return part.toolName;
  if (part.toolName !== MASTRA_PLACEHOLDER_NAME || typeof output.value !== "string") return undefined;
  return MASTRA_NOT_FOUND.exec(output.value)?.[1];
}

function refusalOf(part: ToolResultPart): unknown {
  const output = part.output;
  if (!output || typeof output.type !== "string" || !output.type.startsWith("error")) return undefined;
  return readRefusalText(output.value);
}

/**
 * A language-model prompt (the AI SDK's provider interface, which Mastra speaks too) with each
 * framework answer to a call of a tool that does not exist replaced by `answer(toolName)`
 * (default {@link unknownTool}). The same array when nothing changes.
 */
export function withUnknownToolsAnswered<P>(
  prompt: P,
  answer: (toolName: string) => unknown = unknownTool,
): P {
  if (!Array.isArray(prompt)) return prompt;
  let changed = false;
  const out = prompt.map((message: unknown) => {
    const content = (message as { role?: unknown; content?: unknown })?.content;
    if ((message as { role?: unknown })?.role !== "tool" || !Array.isArray(content)) return message;
    let touched = false;
    const parts = content.map((part: unknown) => {
      if (!isToolResult(part)) return part;
      const called = unknownToolCalled(part);
      // A refusal a framework carried as its input-check error (`refusalError`): core's result.
      const refusal = called === undefined ? refusalOf(part) : undefined;
      if (called === undefined && refusal === undefined) return part;
      touched = true;
      return { ...part, output: { type: "json", value: refusal ?? answer(called!) } };
    });
    if (!touched) return message;
    changed = true;
    return { ...(message as object), content: parts };
  });
  return (changed ? out : prompt) as P;
}

/**
 * What the model reads for a skill tool of this conversation (`session.isSkillTool`) that the
 * framework had not registered when the model called it: a real skill not offered at that step.
 * Core's refusal kind, not "no such tool" (the skill exists), and it names no other tool.
 */
export function skillToolNotOffered(toolName: string): {
  status: "error";
  error_type: "TOOL_NOT_OFFERED";
  message: string;
} {
  // Core's own words for a skill tool the step did not offer (session/messages.ts).
  return { status: "error", ...notOffered(toolName, toolName, undefined) } as ReturnType<
    typeof skillToolNotOffered
  >;
}

type AnyFunction = (...args: unknown[]) => unknown;

/**
 * A Proxy over a language model (the AI SDK's provider interface, which Mastra speaks too)
 * whose every call's prompt reads `answer(toolName)` for a framework's answer to a call of a
 * tool it does not have: for a sub-agent, which has no session of its own to wrap its model
 * with (`respondingModel`). The framework's words list the tools the sub-agent was given;
 * core's (see `subAgentUnknownTool`) are the sub-agent guard's, as every framework answers.
 */
export function answeringUnknownTools<M>(model: M, answer: (toolName: string) => unknown): M {
  if (typeof model !== "object" || model === null) return model;
  const rewrite = (args: unknown[]): unknown[] => {
    const [options, ...rest] = args as [{ prompt?: unknown } | undefined, ...unknown[]];
    if (!options) return args;
    const prompt = withUnknownToolsAnswered(options.prompt, answer);
    return prompt === options.prompt ? args : [{ ...options, prompt }, ...rest];
  };
  return new Proxy(model, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if ((property === "doGenerate" || property === "doStream") && typeof value === "function") {
        return (...args: unknown[]) => (value as AnyFunction).apply(target, rewrite(args));
      }
      return typeof value === "function" ? (value as AnyFunction).bind(target) : value;
    },
  });
}

/**
 * What a sub-agent's model reads for a call of a tool it was not given: its guard's refusal
 * (`TOOL_NOT_ALLOWED`, naming the tools it may use), the answer the sub-agent gets where the
 * framework lets the guard see the call (LangChain, core's reference loop).
 */
export function subAgentUnknownTool(judge: {
  guard(call: { name: string } | string): { allowed: boolean; result?: unknown };
}): (toolName: string) => unknown {
  return (toolName) => {
    const verdict = judge.guard(toolName);
    return verdict.allowed ? unknownTool(toolName) : verdict.result;
  };
}
