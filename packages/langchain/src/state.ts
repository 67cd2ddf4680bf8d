/**
 * How a session's plain-JSON state lives in a LangGraph checkpoint, and how it is rebuilt
 * from the message history when there is no checkpoint.
 */

import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { type HistoryItem, type SessionState, toolErrorOutput } from "@skillshelf/core";
import { z } from "zod/v4";

/** The agent-state key the middleware owns. */
export const STATE_KEY = "skillshelf";

// Loose objects: core owns SessionState; fields it adds later must survive a checkpoint round trip.
const activeSkillSchema = z.looseObject({
  name: z.string(),
  by: z.enum(["model", "user", "code"]),
  args: z.string().optional(),
  at: z.string(),
});
const sessionStateSchema = z.looseObject({ active: z.array(activeSkillSchema) });

/**
 * What a node writes. Tool calls run in parallel (one LangGraph task each), so two activations
 * in one step both write from the same base: they are merged by name. The model node is the
 * only writer in its step and writes a full snapshot (`replace`), so core may also drop skills.
 */
const stateUpdateSchema = sessionStateSchema.extend({ replace: z.boolean().optional() });
type StoredState = z.infer<typeof sessionStateSchema>;
export type StateUpdate = z.infer<typeof stateUpdateSchema>;

export function mergeState(
  current: StoredState | undefined,
  next: StateUpdate | undefined,
): StoredState | undefined {
  if (next === undefined) return current;
  const { replace, ...snapshot } = next;
  if (replace || current === undefined) return snapshot;
  const known = new Set(current.active.map((a) => a.name));
  return { ...current, active: [...current.active, ...next.active.filter((a) => !known.has(a.name))] };
}

/** A full snapshot of a session's state, as the one writer of its step writes it. */
export function snapshotUpdate(state: SessionState): StateUpdate {
  return { ...(state as StoredState), replace: true };
}

/**
 * No default on purpose: `undefined` means "never written in this thread", which is how the
 * middleware tells a stateless call (rebuild from history) from a checkpointed one.
 */
export const skillsStateSchema = new StateSchema({
  [STATE_KEY]: new ReducedValue(sessionStateSchema.optional(), {
    // Optional too: createAgent validates the invoke input against it.
    inputSchema: stateUpdateSchema.optional(),
    reducer: mergeState,
  }),
});

/**
 * The latest user message, and whether an earlier model call of this turn already planned it
 * (something follows it: the model answered or a tool ran), so its "/name" and candidates
 * are not run or counted twice.
 */
export function latestUserMessage(messages: readonly BaseMessage[]): { text: string; planned: boolean } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message && HumanMessage.isInstance(message)) {
      return { text: message.text, planned: i < messages.length - 1 };
    }
  }
  return { text: "", planned: false };
}

/**
 * A neutral view of a LangChain conversation for `shelf.sessionFromHistory()`. `planned`: the
 * latest user message's turn was already planned (its "/name" ran), so core replays it even
 * when nothing follows it yet.
 */
export function toHistory(
  messages: readonly BaseMessage[],
  options: { planned?: boolean } = {},
): HistoryItem[] {
  const outputs = new Map<string, unknown>();
  for (const message of messages) {
    if (!ToolMessage.isInstance(message)) continue;
    // Core reads a result's status (JSON text included); a failed call must read as failed.
    outputs.set(
      message.tool_call_id,
      message.status === "error" ? toolErrorOutput(message.text) : message.text,
    );
  }
  const history: HistoryItem[] = [];
  for (const message of messages) {
    if (HumanMessage.isInstance(message)) history.push({ kind: "user", text: message.text });
    else if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        history.push({
          kind: "tool-call",
          toolName: call.name,
          input: call.args,
          ...(call.id && outputs.has(call.id) ? { output: outputs.get(call.id) } : {}),
        });
      }
    }
  }
  const last = history.at(-1);
  if (options.planned && last?.kind === "user") last.planned = true;
  return history;
}
