/**
 * The disable list: skills turned off without deleting them. A disabled skill is still
 * loaded (so `list` and diagnostics show it) but the shelf serves it to nothing: it is not
 * offered, matched, or activatable by the model or by "/name".
 *
 * The list comes from the config file (re-read when it changes, so `skillshelf disable`
 * reaches a running agent at its next refresh) and from the host's `disabled` option. A
 * config file that exists but cannot be read fails closed: every skill from a folder is
 * treated as disabled until it is fixed, since the list it held is unknown.
 */
import { statSync } from "node:fs";
import type { Diagnostic, Skill, SkillSource } from "../types.js";
import { readShelfConfig } from "./shelf-config.js";

export interface DisabledFilterOptions {
  /** What is served otherwise (the loader, or the trust gate's source). */
  skills: SkillSource;
  /** The config file; undefined reads none. */
  file?: string;
  /** Names the host disables in code. */
  names?: readonly string[];
}

export interface DisabledFilter {
  /** `skills` without the disabled ones (a stable array until something changes). */
  readonly source: SkillSource;
  /** Re-reads the config file when it changed; true when the list changed. */
  refresh(): Promise<boolean>;
  isDisabled(skill: Skill): boolean;
  /** The refusal an activation of a disabled skill gets (instead of NOT_FOUND). */
  withheld(name: string): { error_type: "DISABLED"; message: string } | undefined;
  diagnostics(): Diagnostic[];
}

export function createDisabledFilter(options: DisabledFilterOptions): DisabledFilter {
  const fromCode = new Set(options.names ?? []);
  let fromFile = new Set<string>();
  let problem: Diagnostic | undefined;
  let fileKey = "";
  let version = 0;
  let cached: { list: readonly Skill[]; version: number; served: readonly Skill[] } | undefined;

  const isDisabled = (skill: Skill) =>
    fromCode.has(skill.name) ||
    fromFile.has(skill.name) ||
    (problem !== undefined && skill.scope !== "builtin");
  const served = (): readonly Skill[] => {
    const list = options.skills.skills();
    if (cached?.list !== list || cached.version !== version) {
      cached = { list, version, served: list.some(isDisabled) ? list.filter((s) => !isDisabled(s)) : list };
    }
    return cached.served;
  };

  return {
    source: {
      skills: served,
      get(name) {
        const skill = options.skills.get(name);
        return skill && !isDisabled(skill) ? skill : undefined;
      },
    },
    async refresh() {
      if (options.file === undefined) return false;
      // Every refresh() asks, so the unchanged case is one synchronous stat (about 2 µs; an
      // awaited one costs 25–90 µs through the thread pool, more than the rest of the call).
      const stat = statSync(options.file, { throwIfNoEntry: false });
      const key = stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : "none";
      if (key === fileKey) return false;
      fileKey = key;
      const read = await readShelfConfig(options.file);
      const before = `${[...fromFile].sort().join()}|${problem?.message ?? ""}`;
      fromFile = new Set(read.config.disabled);
      problem = read.problem
        ? {
            severity: "error",
            code: "config-invalid",
            message: `The skillshelf config file cannot be used (${read.problem}): every skill from a folder is treated as disabled until it is fixed.`,
            file: options.file,
            line: 1,
            hint: 'Fix the file: a JSON object such as { "disabled": ["skill-name"] }.',
          }
        : undefined;
      const changed = before !== `${[...fromFile].sort().join()}|${problem?.message ?? ""}`;
      if (changed) version++;
      return changed;
    },
    isDisabled,
    withheld(name) {
      const skill = options.skills.get(name);
      if (!skill || !isDisabled(skill)) return undefined;
      return {
        error_type: "DISABLED",
        message: `Skill "${skill.name}" is turned off on this shelf (its disable list): it cannot be used. Continue without it, and tell the user if they asked for it.`,
      };
    },
    diagnostics() {
      const out: Diagnostic[] = problem ? [problem] : [];
      for (const skill of options.skills.skills()) {
        if (!fromCode.has(skill.name) && !fromFile.has(skill.name)) continue;
        out.push({
          severity: "info",
          code: "disabled",
          message: `Skill "${skill.name}" is disabled: it is loaded but never offered or activatable.`,
          file: skill.file,
          line: 1,
          hint: fromFile.has(skill.name)
            ? `Remove it from "disabled" in ${options.file} (or run \`skillshelf enable ${skill.name}\`) to turn it back on.`
            : "The host disables it (the shelf's `disabled` option).",
        });
      }
      return out;
    },
  };
}
