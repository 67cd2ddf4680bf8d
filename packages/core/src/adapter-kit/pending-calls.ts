/**
 * Calls a conversation holds without a result yet, judged as the response they came in.
 *
 * A framework may run such a call with no model step before it: the AI SDK runs the calls a
 * user approved (`needsApproval`, `toolApproval`) at the start of the next request, before its
 * first step, from the messages the client posts back. A session rebuilt from those messages
 * ignores a call that has no output, so an activation waiting for approval next to a host call
 * would not apply, and the host call would be judged as if no skill were active. Handed to
 * `respond` here, every call still waiting since the last user message is judged as if its
 * response's activations (and ends) had happened, as when the response first arrived.
 */
import type { HistoryItem, Session, ToolCall } from "../types.js";

/** The calls of `history` since its last user message that have no output, in order. */
export function pendingCalls(history: readonly HistoryItem[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of history) {
    if (item.kind === "user") calls.length = 0;
    else if (!("output" in item)) {
      const call: ToolCall = { name: item.toolName, input: item.input };
      if (item.id !== undefined) call.id = item.id;
      calls.push(call);
    }
  }
  return calls;
}

/**
 * `session.respond` with the calls `history` still waits on (see `pendingCalls`): for a
 * session opened from `history` to judge a call a framework runs without a step first.
 * Returns the session.
 */
export function respondToPendingCalls(session: Session, history: readonly HistoryItem[]): Session {
  const calls = pendingCalls(history);
  if (calls.length > 0) session.respond(calls);
  return session;
}
