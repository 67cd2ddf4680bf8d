/**
 * Mastra conversations as core's neutral history. Mastra memory stores messages in its
 * own DB shape (format 2: `parts`, tool calls as `tool-invocation` parts), and recalled
 * thread messages reach input processors in that shape, so this is the one translation
 * needed to rebuild a session across turns.
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import { type HistoryItem, latestUserMessage } from "@skillshelf/core";

export interface Conversation {
  /** The whole thread as core history, the latest user message included. */
  history: HistoryItem[];
  /** The latest user message's text; undefined when the run has none. */
  message: string | undefined;
}

/**
 * What `shelf.sessionFromHistory` and `session.plan` need from a thread. The latest user
 * message stays in the history: core leaves a trailing user message to `plan({ message })`
 * (which runs its "/name" once) and replays one that tool calls already followed.
 */
export function readConversation(messages: readonly MastraDBMessage[]): Conversation {
  const history = toHistory(messages);
  return { history, message: latestUserMessage(history)?.text };
}

/** A neutral view of Mastra DB messages for `shelf.sessionFromHistory()`. */
export function toHistory(messages: readonly MastraDBMessage[]): HistoryItem[] {
  const history: HistoryItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      history.push({ kind: "user", text: messageText(message) });
      continue;
    }
    if (message.role !== "assistant") continue;
    for (const part of message.content.parts ?? []) {
      if (part.type !== "tool-invocation") continue;
      const call = part.toolInvocation;
      // A call that never produced a result (refused by Mastra, failed, still pending) changed
      // nothing; one that did carries its output, whose status core reads.
      if (call.state !== "result") continue;
      history.push({ kind: "tool-call", toolName: call.toolName, input: call.args, output: call.result });
    }
  }
  return history;
}

function messageText(message: MastraDBMessage): string {
  const texts: string[] = [];
  for (const part of message.content.parts ?? []) if (part.type === "text") texts.push(part.text);
  if (texts.length > 0) return texts.join("\n");
  return typeof message.content.content === "string" ? message.content.content : "";
}
