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

const PREFIX = "skillshelf_command_";

/**
 * The record's call id, from the command's turn id (`<ordinal>:<hash>`): the same on every
 * replay of the conversation, and only letters, digits and `_` (providers restrict call ids).
 */
export function commandRecordId(turnId: string): string | undefined {
  const match = /^(\d+):([0-9a-f]{8})$/.exec(turnId);
  return match ? `${PREFIX}${match[1]}_${match[2]}` : undefined;
}

/** Is this tool-call id a command's record (left out of what the model is sent)? */
export function isCommandRecordId(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(PREFIX) && /^skillshelf_command_\d+_[0-9a-f]{8}$/.test(id);
}
