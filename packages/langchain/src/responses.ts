/**
 * The session of each model response. One session is opened per model call (in
 * wrapModelCall, where the agent's tools are known); every tool call of its response must be
 * judged by that same session, so a call in the same response as an activation sees the
 * activation.
 *
 * Responses are known by message id, not by object: LangGraph's message reducer turns a
 * streamed AIMessageChunk into a new AIMessage. A response without an id is given one (the
 * reducer would give it one anyway), so every message the model call added is found again
 * in the state that the tool calls see. So is a tool call without an id.
 */

import { randomUUID } from "node:crypto";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { Session, SessionState, ToolCall } from "@skillshelf/core";

export interface Response {
  session: Session;
  /** The state the model call was planned with, before its response applied: what the model call persists. */
  planned: SessionState;
  /** The agent's tool names the session was opened with (persisted beside the state). */
  tools: readonly string[];
}

export interface Responses {
  /**
   * Record the session that answered a model call, under every message the call added (the
   * model's message; for a structured response also the framework's messages after it), and
   * hand it the calls of the model's message.
   */
  answered(model: AIMessage, added: readonly BaseMessage[], response: Response): void;
  /** The session that answered this message, when this process answered it. */
  of(message: BaseMessage | undefined): Response | undefined;
  /** The latest response holding this tool call. */
  holding(messages: readonly BaseMessage[], callId: string | undefined): AIMessage | undefined;
}

/** Responses kept per middleware: enough for the calls in flight of many threads at once. */
const KEPT = 1024;

export function callsOf(message: AIMessage): ToolCall[] {
  return (message.tool_calls ?? []).map((call) => {
    const out: ToolCall = { name: call.name, input: call.args };
    if (call.id) out.id = call.id;
    return out;
  });
}

function idOf(message: BaseMessage): string {
  if (typeof message.id !== "string" || message.id === "") {
    message.id = randomUUID();
    message.lc_kwargs.id = message.id;
  }
  return message.id;
}

/**
 * A tool call without an id could not be found again in its response, and would be judged
 * alone, before the response's activations: each is given one, as the message is.
 */
function giveCallIds(message: AIMessage): void {
  for (const call of message.tool_calls ?? []) {
    if (typeof call.id !== "string" || call.id === "") call.id = `call_${randomUUID()}`;
  }
}

export function createResponses(): Responses {
  const byId = new Map<string, { response: Response; calls: ReadonlySet<string> }>();
  const keep = (id: string, entry: { response: Response; calls: ReadonlySet<string> }) => {
    byId.delete(id);
    byId.set(id, entry);
    if (byId.size > KEPT) byId.delete(byId.keys().next().value!);
  };
  return {
    answered(model, added, response) {
      giveCallIds(model);
      const calls = callsOf(model);
      const entry = { response, calls: new Set(calls.flatMap((c) => (c.id ? [c.id] : []))) };
      for (const message of new Set([model, ...added])) keep(idOf(message), entry);
      response.session.respond(calls);
    },
    of(message) {
      if (typeof message?.id !== "string") return undefined;
      const entry = byId.get(message.id);
      // An id is only a key: a message that reuses one (a replayed or forged history) must not
      // borrow another conversation's session for calls that session never saw.
      const calls = message && AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
      return entry && calls.every((c) => c.id !== undefined && entry.calls.has(c.id))
        ? entry.response
        : undefined;
    },
    holding(messages, callId) {
      if (!callId) return undefined;
      for (let index = messages.length - 1; index >= 0; index--) {
        const message = messages[index];
        if (message && AIMessage.isInstance(message) && message.tool_calls?.some((c) => c.id === callId)) {
          return message;
        }
      }
      return undefined;
    },
  };
}
