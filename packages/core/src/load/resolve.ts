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
 * - `prefer` pins the file that wins for a name (over scope and folder order, never over a
 *   locked builtin); the others lose as they would to any winner.
 * - A role is never lost by accident: when any file of a name is a role (`role: true`), an
 *   ordinary skill of that name never wins. The best role wins (by the rules above) and every
 *   ordinary file of that name gets `role-shadowed`, an error. Replacing a role takes a role.
 */
import path from "node:path";
import { diagnostic } from "../diagnostic.js";
import type { Diagnostic, Scope, Skill } from "../types.js";
import { type GroupWinner, overrideNote } from "./override-note.js";

export interface ResolveEntry {
  skill: Skill;
  /** Position of the source folder (0 = highest); builtins come after every folder. */
  rank: number;
  /** Folder depth under its root (1 or 2); 0 for builtins. */
  depth: number;
}

export type OverrideReason = "shadowed" | "duplicate-name" | "locked" | "role-shadowed";

export interface ResolveOptions {
  /** Skill name → the absolute SKILL.md file (or its folder, or `builtin:<name>`) that wins. */
  prefer?: ReadonlyMap<string, string>;
}

/**
 * A `prefer` option as the user writes it (`{ "code-review": "skills/team/code-review" }`):
 * paths relative to `root`, naming a SKILL.md or its folder; `builtin:<name>` as is.
 */
export function preferredFiles(prefer: Readonly<Record<string, string>>, root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of Object.keys(prefer)) {
    const target = prefer[name];
    if (typeof target !== "string" || target === "") continue;
    files.set(name, target.startsWith("builtin:") ? target : path.resolve(root, target));
  }
  return files;
}

function isPinned(skill: Skill, target: string): boolean {
  return skill.file === target || skill.dir === target || path.dirname(skill.file) === target;
}

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

/** Whether `a` comes before `b` in the order that picks a name's winner (roles, pins and locks aside). */
export function ranksBefore(a: ResolveEntry, b: ResolveEntry): boolean {
  return compareEntries(a, b) < 0;
}

function compareEntries(a: ResolveEntry, b: ResolveEntry): number {
  return (
    SCOPE_ORDER[a.skill.scope] - SCOPE_ORDER[b.skill.scope] ||
    a.rank - b.rank ||
    a.depth - b.depth ||
    (a.skill.file < b.skill.file ? -1 : a.skill.file > b.skill.file ? 1 : 0)
  );
}

/**
 * A resolution's first part: the skill each name serves, and which names more than one file
 * provides. What the other files say (each one's `overridden` entry and its `duplicate-name`,
 * `shadowed`, `locked` or `role-shadowed` note, and a `prefer` that pins nothing) is made by
 * `details()`, the first time it is asked: a start serves the winners, and on shelves of
 * copied skills (the 15,725-file mirror: 7,068 files that lose) the notes were a tenth of it.
 */
export interface Winners {
  /** One skill per name, sorted by name. */
  skills: Skill[];
  /** Names more than one file provides. */
  contested: ReadonlySet<string>;
  /** Every entry that lost, name by name in the order of the entries (builtins included). */
  losers: ResolveEntry[];
  /** The overridden files and resolution's diagnostics, in `resolveSkills`' order; made once. */
  details(): Details;
}

export interface Details {
  overridden: Overridden[];
  diagnostics: Diagnostic[];
}

/** A name several files provide, as the first part decided it (entries sorted, winner first or not). */
interface ContestedName {
  name: string;
  group: ResolveEntry[];
  winner: Skill;
  locked: boolean;
  /** The `prefer` target for the name, when it pinned none of its files. */
  missedTarget: string | undefined;
  pinned: boolean;
  /** Per loser (entry order): whether it was a role when resolved (a stub that stands in for it later is not). */
  roles: readonly boolean[] | undefined;
}

export function resolveSkills(entries: readonly ResolveEntry[], options: ResolveOptions = {}): Resolution {
  const winners = resolveWinners(entries, options);
  const { overridden, diagnostics } = winners.details();
  return { skills: winners.skills, overridden, diagnostics };
}

export function resolveWinners(entries: readonly ResolveEntry[], options: ResolveOptions = {}): Winners {
  const byName = new Map<string, ResolveEntry[]>();
  for (const entry of entries) {
    const group = byName.get(entry.skill.name);
    if (group) group.push(entry);
    else byName.set(entry.skill.name, [entry]);
  }

  // The winner of each name, by name: the names are sorted as strings, and each one has one
  // winner, so the list is the winners in that order without a comparison function called
  // once per pair (8,226 names on the mirror, in code not yet optimised at a cold start).
  const winnerOf = new Map<string, Skill>();
  const names: ContestedName[] = [];
  const contested = new Set<string>();
  const losers: ResolveEntry[] = [];
  for (const [name, group] of byName) {
    // Most names have one file: it wins, with nothing to report (no pin can miss, nothing loses).
    if (group.length === 1) {
      winnerOf.set(name, (group[0] as ResolveEntry).skill);
      continue;
    }
    group.sort(compareEntries);
    const locked = group.find((e) => e.skill.scope === "builtin" && e.skill.locked);
    const target = options.prefer?.get(name);
    const pinned = target === undefined ? undefined : group.find((e) => isPinned(e.skill, target));
    const first = (locked ?? pinned ?? group[0]!).skill;
    // A role can only be replaced by a role (a locked builtin stays whatever it is).
    const role = locked || first.role ? undefined : group.find((e) => e.skill.role)?.skill;
    const winner = role ?? first;
    winnerOf.set(name, winner);
    contested.add(name);
    for (const entry of group) if (entry.skill !== winner) losers.push(entry);
    names.push({
      name,
      group,
      winner,
      locked: locked !== undefined,
      missedTarget: target !== undefined && pinned === undefined ? target : undefined,
      pinned: pinned !== undefined && pinned.skill === winner,
      // Only a role winner tells its losers apart by role.
      roles: winner.role ? group.map((e) => e.skill.role === true) : undefined,
    });
  }
  // The default order compares code units, as `<` does; no two winners share a name.
  const sorted = Array.from(winnerOf.keys()).sort();
  const skills: Skill[] = [];
  for (let i = 0; i < sorted.length; i++) skills.push(winnerOf.get(sorted[i] as string) as Skill);

  let details: Details | undefined;
  return {
    skills,
    contested,
    losers,
    details: () => {
      details ??= lossesOf(names);
      return details;
    },
  };
}

/** Every contested name's overridden files and notes, name by name as resolution met them. */
function lossesOf(names: readonly ContestedName[]): Details {
  const overridden: Overridden[] = [];
  const diagnostics: Diagnostic[] = [];
  const lose = (loser: Skill, winner: Skill, reason: OverrideReason, group: GroupWinner) => {
    // Frozen: its note's texts are written from it when read (override-note.ts).
    const loss: Overridden = Object.freeze({
      name: loser.name,
      file: loser.file,
      scope: loser.scope,
      by: winner.file,
      byScope: winner.scope,
      reason,
    });
    overridden.push(loss);
    diagnostics.push(overrideNote(loss, group));
  };
  for (const { name, group, winner, locked, missedTarget, pinned, roles } of names) {
    if (missedTarget !== undefined) diagnostics.push(unmatchedPreference(name, missedTarget, winner));
    const why = groupWinner(group, winner, pinned);

    // The best file of each scope; the rest of that scope are duplicates of it.
    // (The winner first: a pinned winner may sort after other files of its own scope.)
    const scopeBest = new Map<Scope, Skill>([[winner.scope, winner]]);
    for (let i = 0; i < group.length; i++) {
      const { skill } = group[i] as ResolveEntry;
      if (skill === winner) continue;
      if (roles !== undefined && !roles[i]) {
        lose(skill, winner, "role-shadowed", why);
        continue;
      }
      const best = scopeBest.get(skill.scope);
      if (best) lose(skill, best, "duplicate-name", why);
      else {
        scopeBest.set(skill.scope, skill);
        lose(skill, winner, locked ? "locked" : "shadowed", why);
      }
    }
  }
  return { overridden, diagnostics };
}

function groupWinner(group: readonly ResolveEntry[], winner: Skill, pinned: boolean): GroupWinner {
  const why: GroupWinner = { file: winner.file, pinned, project: 0, user: 0, builtin: 0 };
  for (const { skill } of group) why[skill.scope]++;
  return why;
}

function unmatchedPreference(name: string, target: string, winner: Skill): Diagnostic {
  return diagnostic({
    severity: "warning",
    code: "duplicate-name",
    message: `\`prefer\` pins ${target} for '${name}', but no '${name}' skill was loaded from there; the usual order decides: ${winner.file} is used.`,
    file: target,
    hint: `Point \`prefer['${name}']\` at one of the '${name}' SKILL.md files (or its folder), relative to the project root.`,
  });
}
