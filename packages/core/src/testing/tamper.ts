/**
 * A client's edit of a stored conversation, in words of no framework. A stateless host (an AI
 * SDK route, a Mastra route without memory) replays the messages its client posts back; a
 * LangChain host reloads a checkpoint it may have stored where a client can write. Either way
 * the limits an activation recorded (its result's `data.policy`, a checkpoint entry's `policy`)
 * come back from outside, and a scenario scripts a client that rewrites them. Each driver finds
 * its framework's stored form of those records and rewrites them with the two functions here,
 * so every framework is tampered with in the same way.
 */
import type { ConversationEdit } from "./driver.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The edited copy of one skill activation's result, or undefined when `result` is no such result. */
function editedObject(edit: ConversationEdit, result: unknown): Record<string, unknown> | undefined {
  if (!isObject(result) || !isObject(result.data)) return undefined;
  // An activation's result names its skill and carries the limits it pinned.
  if (result.data.name !== edit.skill || !("policy" in result.data)) return undefined;
  return { ...result, data: { ...result.data, policy: structuredClone(edit.policy) } };
}

/**
 * A tool result as stored (a value, or its JSON text as LangChain keeps it) with the edit
 * applied: the same kind back, and `result` itself when it is not the skill's activation result.
 */
export function tamperedResult(edit: ConversationEdit, result: unknown): unknown {
  if (typeof result === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(result);
    } catch {
      return result;
    }
    const edited = editedObject(edit, parsed);
    return edited ? JSON.stringify(edited) : result;
  }
  return editedObject(edit, result) ?? result;
}

/**
 * A checkpointed session state (`{ active: [{ name, policy, … }] }`) with the edit applied to
 * the skill's entry; `state` itself when it has no such entry (or is no state).
 */
export function tamperedState<T>(edit: ConversationEdit, state: T): T {
  if (!isObject(state) || !Array.isArray(state.active)) return state;
  if (!state.active.some((entry) => isObject(entry) && entry.name === edit.skill)) return state;
  return {
    ...state,
    active: state.active.map((entry) =>
      isObject(entry) && entry.name === edit.skill
        ? { ...entry, policy: structuredClone(edit.policy) }
        : entry,
    ),
  } as T;
}
