/**
 * A skill's shelf (seed 004's domain): its `domain:` field, else the category folder it sits
 * in (`<skills folder>/<category>/<name>/SKILL.md`). A skill directly in a skills folder
 * has no domain unless its file names one.
 */
import path from "node:path";
import type { Skill } from "../types.js";

export function skillDomain(
  skill: Pick<Skill, "domain" | "dir">,
  sources: readonly { dir: string }[],
): string | undefined {
  if (skill.domain !== undefined && skill.domain.trim() !== "") return skill.domain.trim();
  if (skill.dir === undefined) return undefined;
  const category = path.dirname(skill.dir);
  const root = path.resolve(path.dirname(category));
  return sources.some((s) => path.resolve(s.dir) === root) ? path.basename(category) : undefined;
}

/** Does the skill sit on this shelf? Domains compare without case. */
export function inDomain(
  skill: Pick<Skill, "domain" | "dir">,
  sources: readonly { dir: string }[],
  domain: string,
): boolean {
  return skillDomain(skill, sources)?.toLowerCase() === domain.trim().toLowerCase();
}
