/**
 * What plan() falls back to when stage 1 or the catalog throws (a custom tokenizer or
 * embedding that fails, a bug): the host's turn goes on with the skills listed by name, and
 * a `plan-fallback` diagnostic says what broke. Nothing here may throw: no tokenizer, no
 * usage store, only names and a character budget.
 */
import type { Candidate, Diagnostic, Skill } from "../types.js";

/** About 1,000 tokens of names: a fallback must stay small even on a shelf of 10,000 skills. */
const MAX_CHARS = 4_000;

const HEADING = "Skills you can load (names only this turn; load one by name if it fits the task):";

/** The skills by name, this turn's candidates first, within a character budget. */
export function namesOnlyCatalog(
  skills: readonly Skill[],
  candidates: readonly Pick<Candidate, "name">[],
  maxChars = MAX_CHARS,
): { text: string; names: string[] } {
  if (skills.length === 0) return { text: "", names: [] };
  const offered = new Set(skills.map((s) => s.name));
  const ordered = [...new Set([...candidates.map((c) => c.name).filter((n) => offered.has(n)), ...offered])];
  const names: string[] = [];
  let used = 0;
  for (const name of ordered) {
    if (used + name.length + 2 > maxChars) break;
    names.push(name);
    used += name.length + 2;
  }
  const left = ordered.length - names.length;
  const lines = [HEADING, names.join(", ")];
  if (left > 0) {
    lines.push(
      `+${left} more skill${left === 1 ? "" : "s"} not listed here: they are offered when a request matches them.`,
    );
  }
  return { text: lines.join("\n"), names };
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** The `plan-fallback` diagnostic: which part failed, with what error, and what the model got instead. */
export function planFallback(part: "matching" | "catalog" | "plan", error: unknown): Diagnostic {
  const what = {
    matching: "Stage-1 matching failed",
    catalog: "The skill catalog could not be built",
    plan: "The turn could not be planned",
  }[part];
  const instead = {
    matching: "this turn has no candidates (the catalog still lists the skills)",
    catalog: "the model sees the skills by name only this turn",
    plan: "the model is offered no skills this turn (active skills' tool limits still hold)",
  }[part];
  return {
    severity: "error",
    code: "plan-fallback",
    message: `${what} (${reason(error)}): ${instead}.`,
    file: "",
    line: 1,
    hint:
      part === "catalog"
        ? "Check the shelf's catalog options (a custom countTokens must return a number for any text)."
        : part === "matching"
          ? "Check the shelf's matcher options (custom tokenizer, fields, embed)."
          : "This is a bug or a broken skill source: please report it with the error above.",
  };
}
