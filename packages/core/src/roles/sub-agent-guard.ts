/**
 * The guard every sub-agent's tool call goes through, a delegated role's and a forked
 * skill's alike: a tool the sub-agent was not given is refused, naming what it may use
 * (the model may have seen the tool in the parent's list, or invent one); any other call is
 * judged by the parent's guard, so the sub-agent never gets past the conversation's limits.
 */
import { toolList } from "../session/render.js";
import type { GuardResult, ToolCall } from "../types.js";

export function subAgentGuard(
  agent: string,
  tools: readonly string[],
  parent: ((call: ToolCall | string) => GuardResult) | undefined,
): (call: ToolCall | string) => GuardResult {
  const given = new Set(tools);
  return (call) => {
    const name = typeof call === "string" ? call : call.name;
    if (!given.has(name)) {
      return {
        allowed: false,
        result: {
          status: "error",
          error_type: "TOOL_NOT_ALLOWED",
          message: `${name} is not a tool of the "${agent}" sub-agent; it may use ${tools.length > 0 ? toolList(tools) : "no tools"}.`,
        },
      };
    }
    return parent ? parent(call) : { allowed: true };
  };
}
