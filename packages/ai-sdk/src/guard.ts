/**
 * Execution-time enforcement. `activeTools` already hides forbidden tools from the model,
 * but a model can still emit a call to a tool it saw earlier in the conversation, and some
 * providers do. So every host tool's `execute` asks core first: a forbidden call never runs
 * and the model reads core's structured TOOL_NOT_ALLOWED result instead.
 */
import type { Session } from "@skillshelf/core";
import type { ModelMessage, Tool, ToolSet } from "ai";

/** Resolves the session that was in force for the step whose prompt was `messages`. */
export type SessionAt = (messages: readonly ModelMessage[]) => Session;

export function guardTools<TOOLS extends ToolSet>(tools: TOOLS, sessionAt: SessionAt): TOOLS {
  const guarded: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools)) guarded[name] = guardTool(name, tool, sessionAt);
  return guarded as TOOLS;
}

function guardTool(name: string, tool: Tool, sessionAt: SessionAt): Tool {
  const execute = tool.execute;
  // Tools without `execute` run on the client or at the provider; activeTools is all we have.
  if (!execute) return tool;
  const toModelOutput = tool.toModelOutput;
  return {
    ...tool,
    // Synchronous on purpose: returning the original call's value untouched keeps
    // streaming tools (AsyncIterable results) streaming.
    execute: (input: unknown, options) => {
      const verdict = sessionAt(options.messages).guard(name);
      return verdict.allowed ? execute(input as never, options) : verdict.result;
    },
    // A user's toModelOutput expects the tool's own output shape, never our error object.
    ...(toModelOutput && {
      toModelOutput: (options) =>
        isBlockedResult(options.output) ? { type: "json", value: options.output } : toModelOutput(options),
    }),
  } as Tool;
}

/** By shape, because the result also comes back (serialised) in the next request's messages. */
function isBlockedResult(
  output: unknown,
): output is { status: "error"; error_type: "TOOL_NOT_ALLOWED"; message: string } {
  return (
    typeof output === "object" &&
    output !== null &&
    (output as { status?: unknown }).status === "error" &&
    (output as { error_type?: unknown }).error_type === "TOOL_NOT_ALLOWED"
  );
}
