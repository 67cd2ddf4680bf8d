/**
 * The tool whitelist, enforced. While skills are active the model may use only the host
 * tools that every active skill's `allowed-tools` admits (least privilege: activating one
 * more skill can only narrow the set), minus anything a `disallowed-tools` names.
 * A skill without `allowed-tools` does not restrict; `allowed-tools: []` allows nothing.
 */
import picomatch from "picomatch";
import type { Diagnostic, Skill } from "../types.js";
import { defaultToolAliases, type ToolAliases } from "./aliases.js";

export type ToolMatcher = (tool: string) => boolean;

/** `Bash(git:*)`: a Claude Code permission specifier. We can enforce the tool, not its arguments. */
const SPECIFIER = /^([^()]+?)\s*\((.*)\)$/s;

const looseNames = new Map<string, string>();

/** Lowercase without separators: `WebSearch`, `web_search` and `web-search` are one name. */
export function looseToolName(name: string): string {
  // Asked for each host tool against each whitelist entry on every plan: remember the few names a host has.
  let loose = looseNames.get(name);
  if (loose === undefined) {
    loose = name.toLowerCase().replace(/[-_\s.]/g, "");
    if (looseNames.size >= 4096) looseNames.clear();
    looseNames.set(name, loose);
  }
  return loose;
}

function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern).isGlob;
}

function patternMatcher(pattern: string): ToolMatcher {
  if (isGlob(pattern)) return picomatch(pattern, { dot: true });
  return (tool) => tool === pattern;
}

function aliasTargets(key: string, aliases: ToolAliases): readonly string[] | undefined {
  const value = Object.hasOwn(aliases, key)
    ? aliases[key]
    : Object.hasOwn(defaultToolAliases, key)
      ? defaultToolAliases[key]
      : undefined;
  if (value === undefined) return undefined;
  return typeof value === "string" ? [value] : value;
}

/**
 * Compile one whitelist entry into a predicate over host tool names. An entry admits a tool
 * when it names it exactly, matches it as a glob, equals it loosely (case and separators
 * aside), or when an alias for the entry (or for its base name, `Bash` of `Bash(git:*)`)
 * names or globs it. Host aliases replace the defaults key by key.
 */
export function compileToolEntry(entry: string, aliases: ToolAliases = {}): ToolMatcher {
  const trimmed = entry.trim();
  const specifier = SPECIFIER.exec(trimmed);
  const base = specifier ? specifier[1]!.trim() : trimmed;
  const matchers: ToolMatcher[] = [patternMatcher(base)];
  if (!isGlob(base)) {
    const loose = looseToolName(base);
    matchers.push((tool) => looseToolName(tool) === loose);
  }
  const targets = aliasTargets(trimmed, aliases) ?? (specifier ? aliasTargets(base, aliases) : undefined);
  for (const target of targets ?? []) matchers.push(patternMatcher(target));
  return (tool) => matchers.some((match) => match(tool));
}

interface CompiledEntry {
  entry: string;
  test: ToolMatcher;
}

interface CompiledSkill {
  skill: Skill;
  allow?: CompiledEntry[];
  deny: CompiledEntry[];
}

// Compiling globs is the expensive part; a skill object is immutable once loaded, so its
// compiled form lives as long as it does (per alias map).
const compiledCache = new WeakMap<ToolAliases, WeakMap<Skill, CompiledSkill>>();
const NO_ALIASES: ToolAliases = Object.freeze({});

function compileSkill(skill: Skill, aliases: ToolAliases): CompiledSkill {
  let perAliases = compiledCache.get(aliases);
  if (!perAliases) {
    perAliases = new WeakMap();
    compiledCache.set(aliases, perAliases);
  }
  let compiled = perAliases.get(skill);
  if (!compiled) {
    const compile = (entry: string): CompiledEntry => ({ entry, test: compileToolEntry(entry, aliases) });
    compiled = {
      skill,
      allow: skill.allowedTools?.map(compile),
      deny: (skill.disallowedTools ?? []).map(compile),
    };
    perAliases.set(skill, compiled);
  }
  return compiled;
}

export type ToolDecision =
  | { allowed: true }
  | {
      allowed: false;
      /** The active skill that rules the tool out. */
      skill: string;
      reason: "not-in-allowed-tools" | "disallowed";
      /** The skill's `allowed-tools` (not-in-allowed-tools) or the `disallowed-tools` entry that matched. */
      entries: string[];
    };

export interface ToolPolicy {
  /** True when some active skill restricts tools (a whitelist or a disallow list). */
  readonly restricted: boolean;
  /** May this tool run under the active skills? */
  decide(tool: string): ToolDecision;
  /** Of the host's tools, those allowed, in the host's order. */
  allowedTools(tools: readonly string[]): string[];
  /** `unknown-tool` warnings: whitelist entries of the active skills that admit none of `tools`. */
  unknownTools(tools: readonly string[]): Diagnostic[];
}

export interface ToolPolicyOptions {
  toolAliases?: ToolAliases;
}

/** The policy of a set of active skills. */
export function createToolPolicy(
  activeSkills: readonly Skill[],
  options: ToolPolicyOptions = {},
): ToolPolicy {
  const aliases = options.toolAliases ?? NO_ALIASES;
  const compiled = activeSkills.map((skill) => compileSkill(skill, aliases));
  const restricted = compiled.some((c) => c.allow !== undefined || c.deny.length > 0);

  const decide = (tool: string): ToolDecision => {
    for (const c of compiled) {
      if (c.allow && !c.allow.some((e) => e.test(tool))) {
        return {
          allowed: false,
          skill: c.skill.name,
          reason: "not-in-allowed-tools",
          entries: c.allow.map((e) => e.entry),
        };
      }
      const denied = c.deny.find((e) => e.test(tool));
      if (denied)
        return { allowed: false, skill: c.skill.name, reason: "disallowed", entries: [denied.entry] };
    }
    return { allowed: true };
  };

  return {
    restricted,
    decide,
    allowedTools: (tools) => (restricted ? tools.filter((tool) => decide(tool).allowed) : [...tools]),
    unknownTools(tools) {
      const diagnostics: Diagnostic[] = [];
      for (const c of compiled) {
        for (const e of c.allow ?? []) {
          if (tools.some((tool) => e.test(tool))) continue;
          diagnostics.push(unknownToolDiagnostic(c.skill, e.entry, tools));
        }
      }
      return diagnostics;
    },
  };
}

function unknownToolDiagnostic(skill: Skill, entry: string, tools: readonly string[]): Diagnostic {
  const base = SPECIFIER.exec(entry.trim())?.[1]?.trim() ?? entry.trim();
  const shown = tools.length > 12 ? `${tools.slice(0, 12).join(", ")}, …` : tools.join(", ");
  return {
    severity: "warning",
    code: "unknown-tool",
    message: `Skill "${skill.name}" allows "${entry}", which matches none of the host's tools, so it grants nothing.`,
    file: skill.file,
    line: 1,
    hint: `Map it to a host tool with toolAliases: { ${JSON.stringify(base)}: "<tool name>" }${
      shown ? ` (host tools: ${shown})` : ""
    }, or remove it from allowed-tools.`,
  };
}

/** Of the host's tools, those a whitelist (e.g. a role's) admits, plus a warning per entry that admits none. */
export function resolveAllowedTools(
  allowed: readonly string[] | undefined,
  tools: readonly string[],
  options: ToolPolicyOptions & {
    disallowed?: readonly string[];
    owner?: { name: string; file: string };
  } = {},
): { tools: string[]; diagnostics: Diagnostic[] } {
  const owner = options.owner ?? { name: "(whitelist)", file: "" };
  const pseudoSkill = {
    name: owner.name,
    file: owner.file,
    allowedTools: allowed ? [...allowed] : undefined,
    disallowedTools: [...(options.disallowed ?? [])],
  } as Skill;
  const policy = createToolPolicy([pseudoSkill], options);
  return { tools: policy.allowedTools(tools), diagnostics: policy.unknownTools(tools) };
}
