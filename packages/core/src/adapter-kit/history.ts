/**
 * Reading a conversation the way every adapter must: which user message a step plans, and
 * how a failed tool call is recorded so a history replay never mistakes it for a success.
 */
import type { HistoryItem } from "../types.js";

export interface LatestUserMessage {
  text: string;
  /**
   * An earlier step of this turn already planned it (something follows it in the history, or
   * the host marked it `planned`): replay it, don't run its "/name" or count it again.
   */
  planned: boolean;
}

/**
 * The user message a step plans: the latest one, even when tool calls followed it (a turn is
 * planned once per model call, and its tool calls are part of it). Undefined when there is none.
 */
export function latestUserMessage(history: readonly HistoryItem[]): LatestUserMessage | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.kind === "user")
      return { text: item.text, planned: i < history.length - 1 || item.planned === true };
  }
  return undefined;
}

/**
 * The output to record for a tool call that failed (it threw, was denied, or the framework
 * reports an error): a structured error, so the call reads as failed however its text looks.
 */
export function toolErrorOutput(message: string): {
  status: "error";
  error_type: "TOOL_ERROR";
  message: string;
} {
  return { status: "error", error_type: "TOOL_ERROR", message };
}
