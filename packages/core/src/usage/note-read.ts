/**
 * Seed 002: when the host's own file-read tool opens a skill's SKILL.md, the model is using
 * that skill, whether or not it went through an activation tool. `shelf.noteRead(path)` maps
 * the path back to the skill so the read counts as use.
 */
import fs from "node:fs";
import path from "node:path";
import type { Skill } from "../types.js";

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
  const direct = skills.find((s) => s.file === resolved);
  if (direct) return direct;
  if (path.basename(resolved).toLowerCase() !== "skill.md") return undefined;
  const real = realpath(resolved);
  if (real === undefined) return undefined;
  return skills.find((s) => !s.file.startsWith("builtin:") && realpath(s.file) === real);
}

function realpath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
