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

/** The "/name args" at the start of a message, if any (the name is not looked up). */
export function parseExplicitInvocation(message: string): ExplicitInvocation | undefined {
  const match = COMMAND.exec(message.trim());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trim() };
}

/** The skill a typed name refers to: exact, else case- and width-insensitive (NFKC). */
export function resolveInvokedSkill(source: SkillSource, typed: string): Skill | undefined {
  const exact = source.get(typed);
  if (exact) return exact;
  const folded = typed.normalize("NFKC").toLowerCase();
  if (folded !== typed) {
    const direct = source.get(folded);
    if (direct) return direct;
  }
  return source.skills().find((s) => s.name.normalize("NFKC").toLowerCase() === folded);
}
