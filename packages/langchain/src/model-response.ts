/**
 * The model's own message in what a wrapModelCall handler returns: the AIMessage itself, or,
 * for a structured response (toolStrategy), the first message of the framework's result.
 */
import { AIMessage, BaseMessage } from "@langchain/core/messages";

/** The messages a structured response added after the model's own (to find the call again from afterModel). */
export function addedMessages(response: unknown): BaseMessage[] {
  const messages = (response as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? messages.filter((m): m is BaseMessage => BaseMessage.isInstance(m)) : [];
}

export function aiMessageOf(response: unknown): AIMessage | undefined {
  if (AIMessage.isInstance(response)) return response;
  const messages = (response as { messages?: unknown } | null)?.messages;
  if (Array.isArray(messages)) return messages.find((m): m is AIMessage => AIMessage.isInstance(m));
  return undefined;
}
