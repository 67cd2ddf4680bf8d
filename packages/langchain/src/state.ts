/**
 * How a session's plain-JSON state lives in a LangGraph checkpoint, and how a LangChain
 * conversation reads as core's history (for a thread with no state yet).
 */

import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ReducedValue, StateSchema } from "@langchain/langgraph";
import type { HistoryItem, SessionState } from "@skillshelf/core";
import { toolErrorOutput, toolResultPairing } from "@skillshelf/core/adapter";
import { z as z3 } from "zod/v3";
import { z } from "zod/v4";

/** The agent-state key the middleware owns. */
export const STATE_KEY = "skillshelf";

// Loose on purpose: core owns SessionState and reads every checkpoint defensively. A strict
// schema here would strip the fields core adds (`turn`, `policy`, `finished`, `call`) on the
// checkpoint round trip, and a skill's pinned limits or its turn marker would be lost.
const storedStateSchema = z.looseObject({ active: z.array(z.looseObject({ name: z.string() })) });

type StoredState = z.infer<typeof storedStateSchema>;

/**
 * Every write is a full snapshot of one session. All tool calls of a model response share
 * that call's session, so parallel writes in one step carry the same snapshot: the latest
 * one is the state.
 */
export function latestSnapshot(current: StoredState | undefined, next: StoredState | undefined) {
  return next ?? current;
}

/**
 * What a hook of this middleware sees of the agent state, besides the messages: the same check
 * as `storedStateSchema`, in zod's v3 form, which parses without compiling anything.
 */
export const hookViewSchema = z3.object({
  [STATE_KEY]: z3
    .object({ active: z3.array(z3.object({ name: z3.string() }).passthrough()) })
    .passthrough()
    .optional(),
});

/**
 * Before every model call LangChain cuts a middleware's state out of the agent state with a
 * partial zod object of its `stateSchema`. From a StateSchema it builds a new zod 4 object
 * each time, which zod compiles (`new Function`) on its first parse: ≈ 0.14 ms a model call,
 * measured. A schema that is a zod object it asks for `partial()` instead, and that can be
 * one schema made once. So this StateSchema also reads as a zod (v3) object whose partial is
 * `hookViewSchema`; everything else in LangChain (the graph's channels and their reducer, the
 * invoke input's check, wrapToolCall's state) checks for a StateSchema first and reads it as one.
 * Not enumerable: nothing that lists the schema's own fields sees them. state-view.test.ts
 * fails if a LangChain version stops reading the state through the view.
 */
function withHookView<T extends object>(schema: T): T {
  Object.defineProperties(schema, {
    _def: { value: hookViewSchema._def },
    partial: { value: () => hookViewSchema },
  });
  return schema;
}

/**
 * No default on purpose: `undefined` means "never written in this thread", and core then
 * rebuilds the state from the messages.
 */
export const skillsStateSchema = withHookView(
  new StateSchema({
    [STATE_KEY]: new ReducedValue(storedStateSchema.optional(), {
      // Optional too: createAgent validates the invoke input against it.
      inputSchema: storedStateSchema.optional(),
      reducer: latestSnapshot,
    }),
  }),
);

/** The state a hook sees, as core reads it (core sanitises whatever a checkpoint holds). */
export function storedState(state: { [STATE_KEY]?: StoredState | undefined }): SessionState | undefined {
  return state[STATE_KEY] as SessionState | undefined;
}

/**
 * A snapshot to write under STATE_KEY: the session's state, and the names of the agent's tools
 * its model call had. A process that resumes the thread without a model call of its own (a
 * call approved after a restart) judges that response's calls with the tools it was planned
 * with: a host tool named like one of skillshelf's stays the host's, and a refusal lists them.
 */
export function snapshot(state: SessionState, tools: readonly string[]): StoredState {
  return { ...state, tools: [...tools] } as unknown as StoredState;
}

/** The agent's tool names a snapshot was written with (none in a thread from before they were kept). */
export function storedTools(state: { [STATE_KEY]?: StoredState | undefined }): string[] | undefined {
  const tools = (state[STATE_KEY] as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) && tools.every((t) => typeof t === "string") ? tools : undefined;
}

/** The conversation as core's history: user messages and every tool call with its output once it has one. */
export function toHistory(messages: readonly BaseMessage[]): HistoryItem[] {
  const history: HistoryItem[] = [];
  // A model chooses its call ids and may repeat them: each result goes to the call it answers.
  const calls = toolResultPairing();
  for (const message of messages) {
    if (HumanMessage.isInstance(message)) history.push({ kind: "user", text: message.text });
    else if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        const item: Extract<HistoryItem, { kind: "tool-call" }> = {
          kind: "tool-call",
          toolName: call.name,
          input: call.args,
        };
        if (call.id) item.id = call.id;
        calls.call(item);
        history.push(item);
      }
    } else if (ToolMessage.isInstance(message)) {
      // Core reads a result's status (JSON text included); a call the framework marked failed must read as failed.
      calls.result(
        message.tool_call_id,
        message.name || undefined,
        message.status === "error" ? toolErrorOutput(message.text) : message.text,
      );
    }
  }
  return history;
}
