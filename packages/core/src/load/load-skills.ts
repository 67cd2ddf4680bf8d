/**
 * One-shot loading, for tools that look once and exit (the CLI's `list`, build scripts):
 * the same sources, parsing and resolution as a shelf, without keeping anything alive.
 */
import type { BuiltinSkill, Diagnostic, ParseMode, Skill } from "../types.js";
import { SkillLoader } from "./loader.js";
import type { Overridden } from "./resolve.js";
import { resolveSources, type SourceOptions, type SourceRoot } from "./sources.js";

export interface LoadSkillsOptions extends SourceOptions {
  builtins?: BuiltinSkill[];
  mode?: ParseMode;
}

export interface LoadSkillsResult {
  /** One skill per name, sorted by name. */
  skills: readonly Skill[];
  /** Files that lost to another file of the same name (shadowed, duplicate, locked). */
  overridden: readonly Overridden[];
  diagnostics: readonly Diagnostic[];
  /** The folders that were scanned, highest precedence first. */
  sources: readonly SourceRoot[];
}

export async function loadSkills(options: LoadSkillsOptions = {}): Promise<LoadSkillsResult> {
  const sources = resolveSources(options);
  const loader = new SkillLoader({ sources, builtins: options.builtins, mode: options.mode });
  await loader.load();
  return {
    skills: loader.skills(),
    overridden: loader.overridden(),
    diagnostics: loader.diagnostics(),
    sources,
  };
}
