/**
 * The user's "/name" recorded in a LangChain conversation (core's session/command-record.ts
 * says why): the model call due to record it answers, without calling the model, with an
 * AIMessage whose one tool call is the record; the tool node runs it like any call. A later
 * invoke that has only the messages (no checkpointer) reads the skill's limits from it. The
 * model is never sent the record.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@skillshelf/core";
import { isCommandRecordId } from "@skillshelf/core/adapter";

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

const isRecordMessage = (message: BaseMessage): boolean => {
  if (ToolMessage.isInstance(message)) return isCommandRecordId(message.tool_call_id);
  if (!AIMessage.isInstance(message)) return false;
  const calls = message.tool_calls ?? [];
  return calls.length > 0 && calls.every((c) => isCommandRecordId(c.id)) && message.text === "";
};

/** The messages without the records (the same array when there are none). */
export function withoutCommandRecords<M extends BaseMessage>(messages: M[]): M[] {
  return messages.some(isRecordMessage) ? messages.filter((m) => !isRecordMessage(m)) : messages;
}
