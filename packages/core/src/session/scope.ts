/**
 * A skill's scope: how long an activated skill lasts.
 *
 * - `task` (default): until its task is done. The model ends it with the end tool, the user
 *   with `/done`; a new user message ends it unless it continues the task — a short
 *   acknowledgement ("ok, go ahead", "yes", "继续") or a request stage 1 still routes to
 *   the skill. A skill ended this way is offered again for that turn, with a note, so a
 *   follow-up stage 1 did not recognise costs one activation call, never a wrong restriction.
 * - `turn`: every new user message ends it.
 * - `session`: only the end tool, `/done` or the host's code end it.
 *
 * Starting another skill with "/name" is a new task: in `task` and `turn` scope it ends the
 * skills that were active. A skill the model ends keeps its tool limits until the user's
 * next message, so ending a skill never lets the model reach a tool on its own.
 */
import { normalizeText } from "../match/normalize.js";
import type { Candidate, MatchResult, SkillScope } from "../types.js";

export const DEFAULT_SCOPE: SkillScope = "task";

/** The user's command that ends the active skills. */
export const END_COMMAND = "done";

// Whole first clauses that carry on with what is being done. Kept short on purpose: anything
// else is judged by stage 1, and a wrong "new request" only costs a re-activation.
const CONTINUATIONS = new Set(
  [
    "ok",
    "okay",
    "k",
    "yes",
    "yeah",
    "yep",
    "yup",
    "sure",
    "go",
    "go ahead",
    "go on",
    "continue",
    "proceed",
    "do it",
    "please do",
    "yes please",
    "sounds good",
    "looks good",
    "lgtm",
    "fine",
    "thats fine",
    "that is fine",
    "perfect",
    "great",
    "good",
    "right",
    "correct",
    "approved",
    "confirm",
    "confirmed",
    "agreed",
    "keep going",
    "carry on",
    "next",
    "try again",
    "retry",
    "again",
    "thanks",
    "thank you",
    "ok go ahead",
    "ok continue",
    "好",
    "好的",
    "好吧",
    "行",
    "可以",
    "继续",
    "是",
    "是的",
    "对",
    "嗯",
    "没问题",
    "确认",
    "开始吧",
    "下一步",
    "谢谢",
  ].map((p) => normalizeText(p)),
);

const CLAUSE_END = /[,.!?;:，。！？；：、]/u;

/** Is this message a plain "carry on" ("ok", "yes, and keep it short", "好的，继续")? */
export function isContinuation(message: string): boolean {
  const first = message.trim().split(CLAUSE_END, 1)[0] ?? "";
  const normalized = normalizeText(first).replace(/['’]/g, "").replace(/\s+/g, " ").trim();
  if (CONTINUATIONS.has(normalized)) return true;
  // "ok go ahead", "yes do it": two continuation words in a row.
  const words = normalized.split(" ");
  return words.length <= 3 && words.every((w) => CONTINUATIONS.has(w));
}

/** Does a new user message end this active skill? */
export function endsOnNewMessage(
  scope: SkillScope,
  skill: string,
  message: string,
  match: MatchResult,
): boolean {
  if (scope === "session") return false;
  if (scope === "turn") return true;
  // An exclusion of the skill fired: whatever else the message says, it is not the skill's task.
  if (match.vetoed.some((v) => v.name === skill)) return true;
  if (isContinuation(message)) return false;
  const candidate = match.candidates.find((c) => c.name === skill);
  return !candidate || !routesTo(candidate);
}

/** Lexical overlap alone must be strong to keep a skill: "release date" is not "release notes". */
export const KEEP_LEXICAL_SCORE = 0.5;

/** Does stage 1 route the message to this candidate, not merely share a word with it? */
function routesTo(candidate: Candidate): boolean {
  return candidate.reasons.some(
    (r) =>
      r.kind === "trigger" ||
      r.kind === "example" ||
      r.kind === "name" ||
      r.kind === "semantic" ||
      (r.kind === "lexical" && r.score >= KEEP_LEXICAL_SCORE),
  );
}
