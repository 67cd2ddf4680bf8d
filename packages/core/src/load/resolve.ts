/**
 * Override resolution: many skill files, one skill per name.
 *
 * - Across scopes the higher one wins (project > user > builtin) and the loser gets a
 *   `shadowed` warning naming both files (the Agent Skills client guide: warn on shadowing).
 * - Within one scope the winner is deterministic: the earlier source folder
 *   (`.skillshelf/skills` before `.agents/skills`), then the shallower folder
 *   (`<root>/<name>` before `<root>/<category>/<name>`), then the path in code-unit order.
 *   Every other file gets `duplicate-name`.
 * - A `locked` builtin always wins; every file that tries to replace it gets `locked`.
 */
import { diagnostic } from "../diagnostic.js";
import type { Diagnostic, Scope, Skill } from "../types.js";

export interface ResolveEntry {
  skill: Skill;
  /** Position of the source folder (0 = highest); builtins come after every folder. */
  rank: number;
  /** Folder depth under its root (1 or 2); 0 for builtins. */
  depth: number;
}

export type OverrideReason = "shadowed" | "duplicate-name" | "locked";

/** A skill file that lost to another file of the same name. */
export interface Overridden {
  name: string;
  file: string;
  scope: Scope;
  /** The file that won. */
  by: string;
  byScope: Scope;
  reason: OverrideReason;
}

export interface Resolution {
  /** One skill per name, sorted by name. */
  skills: Skill[];
  overridden: Overridden[];
  diagnostics: Diagnostic[];
}

const SCOPE_ORDER: Record<Scope, number> = { project: 0, user: 1, builtin: 2 };

function compareEntries(a: ResolveEntry, b: ResolveEntry): number {
  return (
    SCOPE_ORDER[a.skill.scope] - SCOPE_ORDER[b.skill.scope] ||
    a.rank - b.rank ||
    a.depth - b.depth ||
    (a.skill.file < b.skill.file ? -1 : a.skill.file > b.skill.file ? 1 : 0)
  );
}

export function resolveSkills(entries: readonly ResolveEntry[]): Resolution {
  const byName = new Map<string, ResolveEntry[]>();
  for (const entry of entries) {
    const group = byName.get(entry.skill.name);
    if (group) group.push(entry);
    else byName.set(entry.skill.name, [entry]);
  }

  const skills: Skill[] = [];
  const overridden: Overridden[] = [];
  const diagnostics: Diagnostic[] = [];
  const lose = (loser: Skill, winner: Skill, reason: OverrideReason) => {
    overridden.push({
      name: loser.name,
      file: loser.file,
      scope: loser.scope,
      by: winner.file,
      byScope: winner.scope,
      reason,
    });
    diagnostics.push(overrideDiagnostic(loser, winner, reason));
  };

  for (const group of byName.values()) {
    group.sort(compareEntries);
    const locked = group.find((e) => e.skill.scope === "builtin" && e.skill.locked);
    const winner = (locked ?? group[0]!).skill;
    skills.push(winner);

    // The best file of each scope; the rest of that scope are duplicates of it.
    const scopeBest = new Map<Scope, Skill>();
    for (const { skill } of group) {
      if (skill === winner) {
        scopeBest.set(skill.scope, skill);
        continue;
      }
      const best = scopeBest.get(skill.scope);
      if (best) lose(skill, best, "duplicate-name");
      else {
        scopeBest.set(skill.scope, skill);
        lose(skill, winner, locked ? "locked" : "shadowed");
      }
    }
  }

  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, overridden, diagnostics };
}

function overrideDiagnostic(loser: Skill, winner: Skill, reason: OverrideReason): Diagnostic {
  const name = `'${loser.name}'`;
  switch (reason) {
    case "shadowed":
      return diagnostic({
        severity: "warning",
        code: "shadowed",
        message: `${loser.scope} skill ${name} (${loser.file}) is shadowed by the ${winner.scope} skill of the same name (${winner.file}).`,
        file: loser.file,
        hint: `Nothing to do if ${winner.file} is meant to replace it; otherwise rename one of them.`,
      });
    case "duplicate-name":
      return diagnostic({
        severity: "warning",
        code: "duplicate-name",
        message: `${name} is defined twice in the ${loser.scope} scope: ${winner.file} is used, ${loser.file} is ignored.`,
        file: loser.file,
        hint: `Give one of them another \`name\`, or delete the copy you do not want.`,
      });
    case "locked":
      return diagnostic({
        severity: "warning",
        code: "locked",
        message: `${name} is a locked builtin skill; ${loser.file} cannot override it and is ignored.`,
        file: loser.file,
        hint: "Choose another `name` for this skill (and rename its folder to match).",
      });
  }
}
