/**
 * Where a skill's file is when it does not load: the loader reports an error diagnostic on
 * that file instead of a skill, and by convention a skill's folder carries its name. A
 * managed rollback can then replace the broken file with a kept version that loads.
 */
import { basename, dirname } from "node:path";
import { SKILL_FILE_NAMES } from "../load/scan.js";
import type { Diagnostic } from "../types.js";

/** The first (highest-precedence) SKILL.md named `<name>/SKILL.md` that failed to load, if any. */
export function unloadedSkillFile(diagnostics: readonly Diagnostic[], name: string): string | undefined {
  for (const d of diagnostics) {
    if (d.severity !== "error" || !d.file) continue;
    if (!(SKILL_FILE_NAMES as readonly string[]).includes(basename(d.file))) continue;
    if (basename(dirname(d.file)) === name) return d.file;
  }
  return undefined;
}
