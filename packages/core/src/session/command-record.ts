/**
 * The user's "/name", recorded in the conversation. A model's activation pins the skill's
 * limits in its tool result, so a host that rebuilds the session from the history on every
 * model call (the AI SDK, a Mastra thread) restores them as they were. A user's command has
 * no such result: replayed, it would read the skill's file as it is then, and an edit that
 * widens `allowed-tools` between two calls would widen the running activation. So before the
 * model first answers a command, the adapter records an activation call for it (made without
 * the model, answered by core with the pinned limits); a replay reads the limits from there.
 * The record is bookkeeping: the prompt the model is sent never shows it.
 */

import { ACTIVATE_SKILL_TOOL_NAMES } from "./activation-tools.js";

const PREFIX = "skillshelf_command_";

/**
 * The part of a record's call id every replay of the conversation can work out: the command's
 * turn (`<ordinal>:<hash>`) in letters, digits and `_` (providers restrict call ids).
 */
export function commandRecordBase(turnId: string): string | undefined {
  const match = /^(\d+):([0-9a-f]{8})$/.exec(turnId);
  return match ? `${PREFIX}${match[1]}_${match[2]}` : undefined;
}

/**
 * A new record's call id: the base and a random part. The model is never shown the record, so
 * it cannot learn the id; a predictable one it could reuse on a call of its own, and frameworks
 * that key a thread's calls by id (Mastra's memory) then merge the two and lose the record.
 */
export function newCommandRecordId(base: string): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  let nonce = "";
  for (const byte of bytes) nonce += byte.toString(16).padStart(2, "0");
  return `${base}_${nonce}`;
}

const RECORD_ID = /^skillshelf_command_\d+_[0-9a-f]{8}(?:_[0-9a-f]{16})?$/;

/** Is this tool-call id a command's record (left out of what the model is sent)? */
export function isCommandRecordId(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(PREFIX) && RECORD_ID.test(id);
}

/** Is this id the record of the command whose base it is (with its random part, or without, as before)? */
export function isRecordOf(id: unknown, base: string): boolean {
  return typeof id === "string" && (id === base || (id.startsWith(`${base}_`) && isCommandRecordId(id)));
}

/**
 * Is this call a command's record: a record-shaped id on the activation tool (under any name
 * it is offered as)? A model chooses its calls' ids and may reuse the record's on a tool of
 * its own choice; such a call is the model's, not the record, and stays in its prompts.
 */
export function isCommandRecordCall(id: unknown, toolName: unknown): boolean {
  return (
    typeof toolName === "string" && ACTIVATE_SKILL_TOOL_NAMES.includes(toolName) && isCommandRecordId(id)
  );
}

/**
 * Which of a conversation's calls and results are records, in order: the first record call
 * with a given id, and the first result with that id after it (a result that names another
 * tool is the model's). Frameworks hand results with or without their tool's name.
 */
export function commandRecordFilter(): {
  call(id: unknown, toolName: unknown): boolean;
  result(id: unknown, toolName?: unknown): boolean;
} {
  const seen = new Set<unknown>();
  const pending = new Set<unknown>();
  return {
    call(id, toolName) {
      if (seen.has(id) || !isCommandRecordCall(id, toolName)) return false;
      seen.add(id);
      pending.add(id);
      return true;
    },
    result(id, toolName) {
      if (!pending.has(id)) return false;
      if (
        toolName !== undefined &&
        !(typeof toolName === "string" && ACTIVATE_SKILL_TOOL_NAMES.includes(toolName))
      )
        return false;
      pending.delete(id);
      return true;
    },
  };
}
