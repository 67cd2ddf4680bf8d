/**
 * Seed 002: when the host's own file-read tool opens a skill's SKILL.md, the model is using
 * that skill, whether or not it went through an activation tool. `shelf.noteRead(path)` maps
 * the path back to the skill so the read counts as use.
 */
import fs from "node:fs";
import path from "node:path";
import type { Skill } from "../types.js";

/** A skill list's files, looked up by path: a linear scan per host file read was O(skills) per tool call. */
interface ReadIndex {
  byFile: Map<string, Skill>;
  /** By each file's realpath, made the first time a path named SKILL.md is not found directly. */
  byRealpath?: Map<string, Skill>;
}

// The shelf hands out a new array whenever a skill changes, so an index per array stays true.
const indexes = new WeakMap<readonly Skill[], ReadIndex>();

function indexOf(skills: readonly Skill[]): ReadIndex {
  let index = indexes.get(skills);
  if (!index) {
    const byFile = new Map<string, Skill>();
    for (const skill of skills) if (!byFile.has(skill.file)) byFile.set(skill.file, skill);
    index = { byFile };
    indexes.set(skills, index);
  }
  return index;
}

/**
 * The skill whose SKILL.md is at `filePath` (relative paths resolve against `root`), also
 * through symlinks and case-insensitive file systems' spellings via realpath. Undefined for
 * any other file (a skill's resources are not its instructions).
 */
export function skillForReadPath(
  skills: readonly Skill[],
  filePath: string,
  root: string,
): Skill | undefined {
  const resolved = path.resolve(root, filePath);
  const index = indexOf(skills);
  const direct = index.byFile.get(resolved);
  if (direct) return direct;
  if (path.basename(resolved).toLowerCase() !== "skill.md") return undefined;
  const real = realpath(resolved);
  if (real === undefined) return undefined;
  if (!index.byRealpath) {
    // Once per skill list, not once per read: a model reading paths named SKILL.md must not
    // cost a realpath of every skill file each time.
    const byRealpath = new Map<string, Skill>();
    for (const skill of skills) {
      if (skill.file.startsWith("builtin:")) continue;
      const target = realpath(skill.file);
      if (target !== undefined && !byRealpath.has(target)) byRealpath.set(target, skill);
    }
    index.byRealpath = byRealpath;
  }
  return index.byRealpath.get(real);
}

function realpath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
