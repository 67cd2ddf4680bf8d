/**
 * Rebuild a session from a conversation, for hosts that keep no state of their own (an AI
 * SDK route handler, a serverless function). Activation tool calls and "/name" user
 * messages are replayed through the very same rules as live ones, silently: they were
 * counted when they happened.
 *
 * A trailing user message (nothing after it yet) is the turn being planned now: it is left
 * for `plan({ message })`, which runs its "/name" command and records its candidates live.
 * A user message followed by tool calls was planned at an earlier step and is replayed, and
 * so is a trailing one marked `planned` (a host re-deriving the state within the same turn).
 * So pass every tool call of the conversation, not only the activation ones, and pass the
 * host's tool names (`options.tools`): a host tool that happens to be called `skill_<x>` or
 * `activate_skill` is then never replayed as an activation.
 */
import type { HistoryItem, Session } from "../types.js";
import { parseExplicitInvocation, resolveInvokedSkill } from "./explicit-invocation.js";
import { createSessionWithInternals, type SessionOptions } from "./session.js";

/** Did this recorded activation fail? (Its output, as a result object or its JSON text.) */
function failed(output: unknown): boolean {
  let value = output;
  if (typeof value === "string") {
    const text = value.trim();
    if (!text.startsWith("{")) return false;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
  }
  return Boolean(value && typeof value === "object" && (value as { status?: unknown }).status === "error");
}

function wellFormed(item: unknown): item is HistoryItem {
  if (!item || typeof item !== "object") return false;
  const record = item as Record<string, unknown>;
  if (record.kind === "user") return typeof record.text === "string";
  if (record.kind === "tool-call") return typeof record.toolName === "string";
  return false;
}

export function sessionFromHistory(
  history: readonly HistoryItem[],
  options: Omit<SessionOptions, "state">,
): Session {
  const { session, internals } = createSessionWithInternals(options);
  const lastIndex = history.length - 1;
  internals.silently(() => {
    history.forEach((item, index) => {
      // Histories come from clients (a route handler's request body): an item of the wrong
      // shape is skipped, never allowed to throw into the host.
      if (!wellFormed(item)) return;
      if (item.kind === "user") {
        if (index === lastIndex && !item.planned) return; // the turn being planned: plan() handles it live
        internals.markSeen(item.text);
        const invocation = parseExplicitInvocation(item.text);
        if (!invocation) return;
        const skill = resolveInvokedSkill(options.skills, invocation.name);
        if (skill) session.activate(skill.name, { by: "user", args: invocation.args });
      } else if (item.kind === "tool-call") {
        if (!session.isActivationTool(item.toolName) || failed(item.output)) return;
        session.callActivationTool(item.toolName, item.input);
      }
    });
  });
  return session;
}
