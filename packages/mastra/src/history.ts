/**
 * Mastra conversations as core's neutral history. Mastra memory stores messages in its
 * own DB shape (format 2: `parts`, tool calls as `tool-invocation` parts), and recalled
 * thread messages reach input processors in that shape, so this is the one translation
 * needed to open a session from a thread.
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import type { HistoryItem } from "@skillshelf/core";
import { toolErrorOutput } from "@skillshelf/core/adapter";

type ToolInvocation = Extract<
  NonNullable<MastraDBMessage["content"]["parts"]>[number],
  { type: "tool-invocation" }
>["toolInvocation"];

/**
 * User messages and every tool call, in order, for `shelf.openSession({ history })`. Which
 * calls count is core's decision: each call carries its id, and its output once it has one.
 */
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
      const item: HistoryItem = {
        kind: "tool-call",
        id: call.toolCallId,
        toolName: call.toolName,
        input: call.args,
      };
      const output = outputOf(call);
      if (output !== undefined) item.output = output;
      history.push(item);
    }
  }
  return history;
}

/** What a call returned; a failed or denied call as core's structured error; undefined while it has none. */
function outputOf(call: ToolInvocation): unknown {
  if (call.state === "result") {
    return call.isError ? toolErrorOutput(call.errorText ?? errorText(call.result)) : call.result;
  }
  if (call.state === "output-error") return toolErrorOutput(call.errorText ?? "The tool failed.");
  if (call.state === "output-denied") return toolErrorOutput(call.errorText ?? "The tool call was denied.");
  return undefined;
}

function errorText(result: unknown): string {
  return typeof result === "string" ? result : JSON.stringify(result ?? "The tool failed.");
}

/** The text of the latest user message (a role agent's task). */
export function latestUserText(messages: readonly MastraDBMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "user") return messageText(message);
  }
  return "";
}

function messageText(message: MastraDBMessage): string {
  const texts: string[] = [];
  for (const part of message.content.parts ?? []) if (part.type === "text") texts.push(part.text);
  if (texts.length > 0) return texts.join("\n");
  return typeof message.content.content === "string" ? message.content.content : "";
}
