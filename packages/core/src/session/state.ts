/**
 * The session's plain-JSON state: reading a checkpoint (which may come from a client, so
 * anything malformed is dropped, never thrown) and the small facts derived from it.
 */
import type { ActiveSkill, EndedSkill, EndReason, PinnedPolicy, SessionState, Skill } from "../types.js";

const BY_VALUES = new Set<ActiveSkill["by"]>(["model", "user", "code"]);
const END_REASONS = new Set<EndReason>(["user", "model", "new-request", "new-turn", "code", "released"]);

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? [...value] : undefined;
}

/**
 * A pinned policy from a checkpoint; malformed → undefined (the current file decides, as before
 * pinning; with no file either, the session allows no tools).
 */
export function readPinnedPolicy(value: unknown): PinnedPolicy | undefined {
  if (!value || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  const disallowed = stringList(record.disallowedTools);
  if (!disallowed) return undefined;
  const pinned: PinnedPolicy = { disallowedTools: disallowed };
  if (record.allowedTools !== undefined && record.allowedTools !== null) {
    const allowed = stringList(record.allowedTools);
    // A whitelist we cannot read restricts to nothing: fail closed.
    pinned.allowedTools = allowed ?? [];
  }
  return pinned;
}

/** The limits of a skill as its file says now. */
export function pinPolicy(skill: Pick<Skill, "allowedTools" | "disallowedTools">): PinnedPolicy {
  const pinned: PinnedPolicy = { disallowedTools: [...(skill.disallowedTools ?? [])] };
  if (skill.allowedTools) pinned.allowedTools = [...skill.allowedTools];
  return pinned;
}

/** Keep what is well-formed in a checkpoint: a bad state must never crash the host. */
export function sanitizeState(state: SessionState | undefined, now: Date): SessionState {
  const active: ActiveSkill[] = [];
  const seen = new Set<string>();
  const entries = Array.isArray(state?.active) ? state.active : [];
  for (const raw of entries as unknown[]) {
    if (!raw || typeof raw !== "object") continue;
    const entry = raw as Partial<ActiveSkill>;
    if (typeof entry.name !== "string" || entry.name === "" || seen.has(entry.name)) continue;
    seen.add(entry.name);
    const item: ActiveSkill = {
      name: entry.name,
      by: BY_VALUES.has(entry.by as ActiveSkill["by"]) ? (entry.by as ActiveSkill["by"]) : "code",
      at: typeof entry.at === "string" ? entry.at : now.toISOString(),
    };
    if (typeof entry.args === "string") item.args = entry.args;
    const policy = readPinnedPolicy(entry.policy);
    if (policy) item.policy = policy;
    if (entry.finished === true) item.finished = true;
    if (typeof entry.call === "string") item.call = entry.call;
    active.push(item);
  }
  const out: SessionState = { active };
  const turn = state?.turn;
  if (turn && typeof turn === "object" && typeof turn.id === "string") {
    const ended: EndedSkill[] = [];
    for (const e of Array.isArray(turn.ended) ? (turn.ended as unknown[]) : []) {
      const item = e as Partial<EndedSkill> | null;
      if (item && typeof item.name === "string" && END_REASONS.has(item.why as EndReason)) {
        ended.push({ name: item.name, why: item.why as EndReason });
      }
    }
    out.turn = ended.length > 0 ? { id: turn.id, ended } : { id: turn.id };
  }
  return out;
}

/** FNV-1a over UTF-16 code units: a short, stable id for a message (not a security hash). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * A user message's turn id: its position among the conversation's user messages (when the
 * host knows it) and its text. The same "yes" typed twice is two turns.
 */
export function turnId(message: string, ordinal?: number): string {
  return `${ordinal ?? ""}:${shortHash(message)}`;
}

export function cloneState(state: SessionState): SessionState {
  const out: SessionState = {
    active: state.active.map((a) => {
      const copy = { ...a };
      if (a.policy) copy.policy = { ...a.policy, disallowedTools: [...a.policy.disallowedTools] };
      if (a.policy?.allowedTools) copy.policy!.allowedTools = [...a.policy.allowedTools];
      return copy;
    }),
  };
  if (state.turn) {
    out.turn = { id: state.turn.id };
    if (state.turn.ended) out.turn.ended = state.turn.ended.map((e) => ({ ...e }));
  }
  return out;
}
