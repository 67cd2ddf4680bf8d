/**
 * A call to a tool a skill hid. `activeTools` takes the tool off the step's list, so the AI
 * SDK parses the model's call against the visible tools only and fails it as an unknown tool
 * (NoSuchToolError) before any `execute` — our guard included — could see it. A model that
 * saw the tool earlier in the conversation makes exactly this call, so the refusal must be
 * core's: the `tool-blocked` event is recorded, and the model reads core's TOOL_NOT_ALLOWED
 * result (which says which tools it may use) instead of a bare "unavailable tool".
 *
 * The AI SDK's hook for calls that fail to parse is `repairToolCall`. A repair can only
 * return a call to a visible tool, so for a blocked call it throws: the SDK then answers the
 * call with a tool error whose text carries core's result as JSON, and the loop goes on.
 */
import type { GuardResult } from "@skillshelf/core";
import { NoSuchToolError, type ToolCallRepairFunction, type ToolSet } from "ai";
import type { SessionAt } from "./guard.js";

/** Thrown from `repairToolCall` for a blocked call; its message is core's result as JSON. */
export class ToolNotAllowedError extends Error {
  override readonly name = "ToolNotAllowedError";
  constructor(readonly result: Extract<GuardResult, { allowed: false }>["result"]) {
    super(JSON.stringify(result));
  }
}

export function guardingRepair(
  hostToolNames: readonly string[],
  sessionAt: SessionAt,
  yours: ToolCallRepairFunction<ToolSet> | undefined,
): ToolCallRepairFunction<ToolSet> {
  const host = new Set(hostToolNames);
  return async (options) => {
    const { toolCall, error, messages } = options;
    // Only a registered host tool that is hidden right now: an unknown name, a bad input or a
    // tool the host itself left out of `activeTools` is not skillshelf's to answer.
    if (NoSuchToolError.isInstance(error) && host.has(toolCall.toolName)) {
      const verdict = sessionAt(messages).guard(toolCall.toolName);
      if (!verdict.allowed) throw new ToolNotAllowedError(verdict.result);
    }
    return yours ? yours(options) : null;
  };
}
