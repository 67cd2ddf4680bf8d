/**
 * Explicit invocation: a user message that starts with "/name args" asks for that skill by
 * name. It is the user's decision, so it works for `disable-model-invocation` skills (seed
 * 000: the rename skill that must only run when asked) and is refused for skills marked
 * `user-invocable: false`.
 */
import type { Skill, SkillSource } from "../types.js";

export interface ExplicitInvocation {
  /** The name as typed (without the slash). */
  name: string;
  /** Everything after the name, trimmed ("" when none). */
  args: string;
}

// A command is a slash and a word at the very start: "/deploy prod", "/技能 参数". A second
// slash ("/usr/bin is full") means a path, not a command.
const COMMAND = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/u;

const fold = (name: string) => name.normalize("NFKC").toLowerCase();

/** The "/name args" at the start of a message, if any (the name is not looked up). */
export function parseExplicitInvocation(message: string): ExplicitInvocation | undefined {
  const match = COMMAND.exec(message.trim());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trim() };
}

/**
 * Skills by folded name, one index per skill list: stateless hosts resolve every "/word" of the
 * conversation again at every step, and folding 10,000 names each time costs a millisecond.
 */
const foldedIndex = new WeakMap<readonly Skill[], Map<string, Skill>>();

function byFoldedName(skills: readonly Skill[]): Map<string, Skill> {
  let index = foldedIndex.get(skills);
  if (!index) {
    index = new Map();
    for (const skill of skills) {
      const key = fold(skill.name);
      if (!index.has(key)) index.set(key, skill); // the first in list order, as before
    }
    foldedIndex.set(skills, index);
  }
  return index;
}

/** The skill a typed name refers to: exact, else case- and width-insensitive (NFKC). */
export function resolveInvokedSkill(source: SkillSource, typed: string): Skill | undefined {
  const exact = source.get(typed);
  if (exact) return exact;
  const folded = fold(typed);
  if (folded !== typed) {
    const direct = source.get(folded);
    if (direct) return direct;
  }
  return byFoldedName(source.skills()).get(folded);
}

const squash = (name: string) => name.replace(/[-_\s]+/g, "");

/** Optimal-string-alignment distance (a transposition counts as one edit), or `max + 1` once past `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, prevPrev[j - 2]! + 1);
      }
      row.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * How far a typed command is from a skill name, or undefined when it is not plausibly that
 * skill: the same name up to hyphens, a prefix of at least 3 characters either way
 * ("/dep", "/deploy-prod" for `deploy`), or a typo (about one edit per 4 characters).
 */
function closeness(typed: string, name: string): number | undefined {
  if (squash(typed) === squash(name)) return 0;
  if (typed.length >= 3 && name.length >= 3 && (name.startsWith(typed) || typed.startsWith(name))) return 1;
  const max = Math.max(1, Math.floor(Math.max(typed.length, name.length) / 4));
  const distance = editDistance(typed, name, max);
  return distance <= max ? distance : undefined;
}

/**
 * The skills a "/name" that names no skill most likely meant, closest first (at most
 * `limit`). Empty when nothing is close: the message is then not taken for a command at
 * all ("/weather in Paris"). Pass only skills the user may run.
 */
export function closestSkillNames(typed: string, skills: readonly Skill[], limit = 3): string[] {
  const wanted = fold(typed);
  const scored: { name: string; distance: number }[] = [];
  for (const skill of skills) {
    const distance = closeness(wanted, fold(skill.name));
    if (distance !== undefined) scored.push({ name: skill.name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.name);
}
