/**
 * The tool whitelist, enforced. While skills are active the model may use only the host
 * tools that every active skill's `allowed-tools` admits (least privilege: activating one
 * more skill can only narrow the set), minus anything a `disallowed-tools` names.
 * A skill without `allowed-tools` does not restrict; `allowed-tools: []` allows nothing.
 */
import type { Diagnostic, Skill } from "../types.js";
import { defaultToolAliases, type ToolAliases } from "./aliases.js";
import { type CommandPattern, commandOfCall, compileCommandPattern } from "./command-pattern.js";
import { compileToolGlob, isToolGlob, type ToolMatcher } from "./tool-glob.js";

export type { ToolMatcher } from "./tool-glob.js";

/** `Bash(git:*)`: a Claude Code permission specifier, enforced on the call's command. */
const SPECIFIER = /^([^()]+?)\s*\((.*)\)$/s;

const NOTHING: ToolMatcher = () => false;

function patternMatcher(pattern: string): ToolMatcher {
  if (isToolGlob(pattern)) return compileToolGlob(pattern);
  return (tool) => tool === pattern;
}

function anyOf(matchers: readonly ToolMatcher[]): ToolMatcher {
  if (matchers.length === 0) return NOTHING;
  if (matchers.length === 1) return matchers[0]!;
  return (tool) => matchers.some((match) => match(tool));
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

/** One whitelist entry, compiled. */
interface CompiledEntry {
  entry: string;
  /** The tools the entry admits for any call. */
  plain: ToolMatcher;
  /** The tools it admits only for calls whose command matches (`Bash(git:*)` → the shell tools). */
  guarded?: { test: ToolMatcher; command: CommandPattern };
}

/**
 * An entry admits a tool when it names it exactly, matches it as a word glob (tool-glob.ts),
 * or when an alias names or globs it: an alias of the whole entry, else of its base name
 * (`Bash` of `Bash(git:*)`). Host aliases replace the defaults key by key. Names match
 * exactly: `read_file` is not `READ_FILE` or `readFile`; Claude Code's names reach host
 * names only through the aliases. With a specifier, the base name's tools are admitted only
 * for calls the specifier allows; a host alias of the whole entry (`"Bash(git:*)":
 * "git_status"`) names tools that keep to it themselves, so those are admitted for any call.
 */
function compileEntry(entry: string, aliases: ToolAliases): CompiledEntry {
  const trimmed = entry.trim();
  const specifier = SPECIFIER.exec(trimmed);
  const whole = aliasTargets(trimmed, aliases)?.map(patternMatcher);
  if (!specifier) return { entry, plain: anyOf([patternMatcher(trimmed), ...(whole ?? [])]) };
  const base = specifier[1]!.trim();
  const baseTools = [patternMatcher(base)];
  if (whole === undefined) baseTools.push(...(aliasTargets(base, aliases) ?? []).map(patternMatcher));
  const plain = anyOf(whole ?? []);
  const guardedTools = anyOf(baseTools);
  return {
    entry,
    plain,
    guarded: {
      test: (tool) => !plain(tool) && guardedTools(tool),
      command: compileCommandPattern(specifier[2]!),
    },
  };
}

const admits = (e: CompiledEntry, tool: string): boolean => e.plain(tool) || (e.guarded?.test(tool) ?? false);

/** Compile one whitelist entry into a predicate over host tool names (what it can admit, for some call). */
export function compileToolEntry(entry: string, aliases: ToolAliases = {}): ToolMatcher {
  const compiled = compileEntry(entry, aliases);
  return (tool) => admits(compiled, tool);
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
    const compile = (entry: string) => compileEntry(entry, aliases);
    compiled = {
      skill,
      allow: skill.allowedTools?.map(compile),
      deny: (skill.disallowedTools ?? []).map(compile),
    };
    perAliases.set(skill, compiled);
  }
  return compiled;
}

/** A limit on a tool's calls: the commands one active skill allows it to run. */
export interface CommandCondition {
  /** The active skill whose whitelist sets it. */
  skill: string;
  /** Its entries that admit the tool (`Bash(git:*)`). */
  entries: string[];
  /** The commands they allow, as the model is told them (`git …`, `npm run test`). */
  commands: string[];
}

export type ToolDecision =
  | {
      allowed: true;
      /**
       * Set only when no call was given (`decide(tool)`, plan time) and the tool is allowed
       * for some commands only: every condition must hold for a call to run.
       */
      conditions?: CommandCondition[];
    }
  | {
      allowed: false;
      /** The active skill that rules the tool out. */
      skill: string;
      /**
       * not-in-allowed-tools: no entry admits the tool; disallowed: a `disallowed-tools` entry
       * names it; argument-not-allowed: the tool is allowed only for some commands, and not this call's.
       */
      reason: "not-in-allowed-tools" | "disallowed" | "argument-not-allowed";
      /**
       * The skill's `allowed-tools` (not-in-allowed-tools), the `disallowed-tools` entry that
       * matched, or the entries whose commands the call did not match (argument-not-allowed).
       */
      entries: string[];
      /** argument-not-allowed: why the call's command was refused, for the model. */
      detail?: string;
    };

export interface ToolPolicy {
  /** True when some active skill restricts tools (a whitelist or a disallow list). */
  readonly restricted: boolean;
  /**
   * May this tool run under the active skills? Without `input` (plan time) a tool allowed
   * only for some commands is allowed with `conditions`. With `input` (a call: its arguments
   * object; pass it even when it is undefined) those conditions are judged on the call.
   */
  decide(tool: string): ToolDecision;
  decide(tool: string, input: unknown): ToolDecision;
  /** Of the host's tools, those allowed (for some call), in the host's order. */
  allowedTools(tools: readonly string[]): string[];
  /** The tool as the model should be told it: `execute (only: \`git …\`; …)`, or its bare name. */
  describe(tool: string): string;
  /** Of the host's tools, those allowed only for some commands, each with the text describe() appends. */
  conditions(tools: readonly string[]): Map<string, string>;
  /** `unknown-tool` warnings: whitelist entries of the active skills that admit none of `tools`. */
  unknownTools(tools: readonly string[]): Diagnostic[];
  /** `tool-glob-expansion` infos: what each glob entry of the active skills admits among `tools`. */
  expansions(tools: readonly string[]): Diagnostic[];
}

export interface ToolPolicyOptions {
  toolAliases?: ToolAliases;
}

/** The text that says what a condition allows, for the model. */
function conditionText(conditions: readonly CommandCondition[]): string {
  const lists = conditions.map((c) => c.commands.map((command) => `\`${command}\``).join(", "));
  const allowed =
    lists.length === 1
      ? `only: ${lists[0]}`
      : `only commands every active skill allows: ${lists.map((l) => `(${l})`).join(" and ")}`;
  return `${allowed}; one command per call, no ;, &&, ||, |, &, redirections, backticks or $(…)`;
}

/** The policy of a set of active skills. */
export function createToolPolicy(
  activeSkills: readonly Skill[],
  options: ToolPolicyOptions = {},
): ToolPolicy {
  const aliases = options.toolAliases ?? NO_ALIASES;
  const compiled = activeSkills.map((skill) => compileSkill(skill, aliases));
  const restricted = compiled.some((c) => c.allow !== undefined || c.deny.length > 0);

  function decide(tool: string, ...call: unknown[]): ToolDecision {
    const judging = call.length > 0;
    let command: ReturnType<typeof commandOfCall> | undefined;
    let conditions: CommandCondition[] | undefined;
    for (const c of compiled) {
      if (c.allow) {
        const admitting = c.allow.filter((e) => admits(e, tool));
        if (admitting.length === 0) {
          return {
            allowed: false,
            skill: c.skill.name,
            reason: "not-in-allowed-tools",
            entries: c.allow.map((e) => e.entry),
          };
        }
        if (!admitting.some((e) => e.plain(tool))) {
          const patterns = admitting.map((e) => e.guarded!.command);
          const entries = admitting.map((e) => e.entry);
          if (!judging) {
            conditions ??= [];
            conditions.push({ skill: c.skill.name, entries, commands: patterns.map((p) => p.shown) });
          } else {
            command ??= commandOfCall(call[0]);
            const checked = command;
            if (!checked.ok || !patterns.some((p) => p.matches(checked.command))) {
              const allowed = patterns.map((p) => `\`${p.shown}\``).join(", ");
              return {
                allowed: false,
                skill: c.skill.name,
                reason: "argument-not-allowed",
                entries,
                detail: checked.ok
                  ? `the command \`${truncate(checked.command)}\` is none of the commands allowed: ${allowed}`
                  : `${checked.problem}; the commands allowed: ${allowed}`,
              };
            }
          }
        }
      }
      // A disallow entry with a specifier (`Bash(rm:*)`) removes the whole tool: a blacklist
      // of commands is easy to walk around (`/bin/rm`, `command rm`), so it never narrows less.
      const denied = c.deny.find((e) => admits(e, tool));
      if (denied)
        return { allowed: false, skill: c.skill.name, reason: "disallowed", entries: [denied.entry] };
    }
    return conditions ? { allowed: true, conditions } : { allowed: true };
  }

  const conditionOf = (tool: string): string | undefined => {
    const decision = decide(tool);
    return decision.allowed && decision.conditions ? conditionText(decision.conditions) : undefined;
  };

  return {
    restricted,
    decide,
    allowedTools: (tools) => (restricted ? tools.filter((tool) => decide(tool).allowed) : [...tools]),
    describe(tool) {
      const condition = conditionOf(tool);
      return condition === undefined ? tool : `${tool} (${condition})`;
    },
    conditions(tools) {
      const out = new Map<string, string>();
      for (const tool of tools) {
        const condition = conditionOf(tool);
        if (condition !== undefined) out.set(tool, condition);
      }
      return out;
    },
    unknownTools(tools) {
      const diagnostics: Diagnostic[] = [];
      for (const c of compiled) {
        for (const e of c.allow ?? []) {
          if (tools.some((tool) => admits(e, tool))) continue;
          diagnostics.push(unknownToolDiagnostic(c.skill, e.entry, tools));
        }
      }
      return diagnostics;
    },
    expansions(tools) {
      const diagnostics: Diagnostic[] = [];
      for (const c of compiled) {
        for (const [list, verb] of [
          [c.allow ?? [], "allows"],
          [c.deny, "disallows"],
        ] as const) {
          for (const e of list) {
            if (!isToolGlob(e.entry.trim())) continue;
            const matched = tools.filter((tool) => admits(e, tool));
            if (matched.length === 0) continue;
            diagnostics.push({
              severity: "info",
              code: "tool-glob-expansion",
              message: `Skill "${c.skill.name}" ${verb} "${e.entry}", which ${verb === "allows" ? "admits" : "removes"}: ${listShown(matched)}.`,
              file: c.skill.file,
              line: 1,
              hint: `Check that every tool listed should be ${verb === "allows" ? "allowed" : "removed"}; name the tools instead of a glob to ${verb === "allows" ? "allow" : "remove"} exactly those.`,
            });
          }
        }
      }
      return diagnostics;
    },
  };
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function listShown(tools: readonly string[]): string {
  return tools.length > 12 ? `${tools.slice(0, 12).join(", ")}, … (${tools.length})` : tools.join(", ");
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

/**
 * Of the host's tools, those a whitelist (e.g. a role's) admits, plus a warning per entry
 * that admits none. A tool the whitelist allows only for some commands (`Bash(git:*)`) is
 * left out, with a `tool-argument-limit` warning: a plain tool list cannot carry the
 * condition, and handing the whole shell over would grant more than the entry says.
 */
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
  const diagnostics = policy.unknownTools(tools);
  const granted: string[] = [];
  for (const tool of policy.allowedTools(tools)) {
    const decision = policy.decide(tool);
    if (decision.allowed && decision.conditions) {
      diagnostics.push({
        severity: "warning",
        code: "tool-argument-limit",
        message: `"${owner.name}" allows ${tool} only for some commands (${decision.conditions
          .flatMap((c) => c.entries)
          .join(", ")}), which a tool list cannot enforce, so ${tool} is left out.`,
        file: owner.file,
        line: 1,
        hint: `Allow ${tool} without a command pattern if it may run any command, or give a tool that runs only those commands (toolAliases: { "${decision.conditions[0]!.entries[0]}": "<tool name>" }).`,
      });
      continue;
    }
    granted.push(tool);
  }
  return { tools: granted, diagnostics };
}
