/**
 * The model's own message in what a wrapModelCall handler returns: the AIMessage itself, or,
 * for a structured response (toolStrategy, providerStrategy), the first message of the
 * framework's result; and that result with the session's state added to it.
 */
import { AIMessage, BaseMessage } from "@langchain/core/messages";
import { Command, isCommand } from "@langchain/langgraph";
import type { SessionState } from "@skillshelf/core";
import { STATE_KEY, snapshot } from "./state.js";

/** The messages a structured response added after the model's own (to find the call again from a tool call). */
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

/**
 * What wrapModelCall returns to write `state` in the model call's own step. The framework
 * adds the model's message to a returned Command itself; a structured response is a plain
 * object it would no longer see once a Command stands in its place, so its messages and value
 * ride in the same Command.
 */
export function withState<Response>(
  response: Response,
  state: SessionState,
  tools: readonly string[],
): Response {
  const update: Record<string, unknown> = { [STATE_KEY]: snapshot(state, tools) };
  if (isCommand(response)) {
    // Only when no inner handler produced an AIMessage: keep that Command's own update and routing.
    const inner = response.update;
    if (inner !== undefined && (typeof inner !== "object" || Array.isArray(inner))) return response;
    const { goto, graph, resume } = response;
    return new Command({ goto, graph, resume, update: { ...inner, ...update } }) as Response;
  }
  if (!AIMessage.isInstance(response) && response !== null && typeof response === "object") {
    const structured = response as { structuredResponse?: unknown; messages?: unknown };
    if ("structuredResponse" in structured) {
      update.messages = structured.messages;
      update.structuredResponse = structured.structuredResponse;
    }
  }
  return new Command({ update }) as Response;
}
