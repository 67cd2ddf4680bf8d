/**
 * A `group` is a set of alternatives: one of them may be active at a time. While one is, the
 * model cannot activate another (`GROUP_CONFLICT`; only the user can switch, with "/name"), so
 * offering the others would only invite a refused call: a plan leaves them out of every skill
 * tool, `activate_skill`'s enum and the catalog until the active one ends.
 */
import type { Skill } from "../types.js";

/** The offerable skills' names by group, made once per list (most shelves have no groups). */
const byGroupCache = new WeakMap<readonly Skill[], Map<string, string[]>>();

function namesByGroup(offerable: readonly Skill[]): Map<string, string[]> {
  let byGroup = byGroupCache.get(offerable);
  if (!byGroup) {
    byGroup = new Map();
    for (const skill of offerable) {
      if (skill.group === undefined) continue;
      const names = byGroup.get(skill.group);
      if (names) names.push(skill.name);
      else byGroup.set(skill.group, [skill.name]);
    }
    byGroupCache.set(offerable, byGroup);
  }
  return byGroup;
}

/**
 * The offerable skills that share a group with an active one (the active ones excluded), in
 * list order. `groupOf` gives an active skill's group as its file says now.
 */
export function rivalsOfActive(
  offerable: readonly Skill[],
  active: readonly string[],
  groupOf: (name: string) => string | undefined,
): string[] {
  if (active.length === 0) return [];
  const rivals: string[] = [];
  const byGroup = namesByGroup(offerable);
  if (byGroup.size === 0) return rivals;
  for (const name of active) {
    const group = groupOf(name);
    if (group === undefined) continue;
    for (const rival of byGroup.get(group) ?? []) {
      if (!active.includes(rival) && !rivals.includes(rival)) rivals.push(rival);
    }
  }
  return rivals;
}
