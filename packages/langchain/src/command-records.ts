/**
 * The user's "/name" recorded in a LangChain conversation (core's session/command-record.ts
 * says why): the model call due to record it answers, without calling the model, with an
 * AIMessage whose one tool call is the record; the tool node runs it like any call. A later
 * invoke that has only the messages (no checkpointer) reads the skill's limits from it. The
 * model is never sent the record.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@skillshelf/core";
import { commandRecordFilter, isCommandRecordId } from "@skillshelf/core/adapter";

/** The model's answer that is the record. */
export function commandRecordMessage(call: ToolCall): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: [
      {
        id: call.id!,
        name: call.name,
        args: (call.input ?? {}) as Record<string, unknown>,
        type: "tool_call",
      },
    ],
  });
}

/**
 * The messages without the records (the same array when there are none). Only the records: an
 * AIMessage of the model's own that reuses a record's id stays, and so does its ToolMessage.
 */
export function withoutCommandRecords<M extends BaseMessage>(messages: M[]): M[] {
  const has = messages.some(
    (m) =>
      (ToolMessage.isInstance(m) && isCommandRecordId(m.tool_call_id)) ||
      (AIMessage.isInstance(m) && (m.tool_calls ?? []).some((c) => isCommandRecordId(c.id))),
  );
  if (!has) return messages;
  const records = commandRecordFilter();
  return messages.filter((m) => {
    if (ToolMessage.isInstance(m)) return !records.result(m.tool_call_id, m.name);
    if (!AIMessage.isInstance(m)) return true;
    const calls = m.tool_calls ?? [];
    // The record is an answer of its own: one call, no text.
    return !(calls.length === 1 && m.text === "" && records.call(calls[0]!.id, calls[0]!.name));
  });
}
