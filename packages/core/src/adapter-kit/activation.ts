/**
 * Running an activation tool call in an adapter. An adapter registers the activation tools a
 * plan offered; by the time the model calls one, the skills may have changed (hot reload) or
 * the session rebuilt for the call may not know the name. The model must still read a result
 * it can act on, the same in every framework.
 */
import type { ActivationResult, Session } from "../types.js";

/** What the model reads when `toolName` is not (or no longer) an activation tool. */
export function notAnActivationTool(toolName: string): Extract<ActivationResult, { status: "error" }> {
  return {
    status: "error",
    error_type: "NOT_FOUND",
    message: `"${toolName}" is not a skill activation tool in this conversation (the skills may have changed). Continue without it, or use a skill from the catalog.`,
  };
}

/** `session.callActivationTool`, with core's NOT_FOUND result instead of `undefined`. */
export function runActivationTool(session: Session, toolName: string, input: unknown): ActivationResult {
  return session.callActivationTool(toolName, input) ?? notAnActivationTool(toolName);
}
