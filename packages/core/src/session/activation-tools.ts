/**
 * Activation tools: what the model calls to load a skill. One `skill_<name>` tool per top
 * stage-1 candidate (its description is the whole pitch: what, when, and what NOT for), and
 * one `activate_skill` tool with an enum of every other skill the model may activate.
 */
import { bodyMentionsArguments } from "../load/lazy-body.js";
import { skillParameters } from "../parameters/skill-parameters.js";
import type { Skill, ToolSpec } from "../types.js";

export const ACTIVATE_SKILL_TOOL = "activate_skill";
export const SKILL_TOOL_PREFIX = "skill_";
/** The tool-name rule shared by OpenAI, Anthropic, Google and Bedrock. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Tool names agent frameworks already use for their own skill systems (Mastra's `skill`,
 * `skill_search`, `skill_read`). A skill named `search` must not become `skill_search`: it
 * would replace the framework's tool, and the framework's calls in a history would replay
 * as activations. Such names take the hashed form instead (`skill_search_<hash>`).
 */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set(["skill", "skill_search", "skill_read"]);

const HASH_LENGTH = 8;
const encoder = new TextEncoder();

/** FNV-1a, 32 bit: tiny, dependency-free and stable across processes and runtimes. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_LENGTH, "0");
}

/** The ASCII part of a name, for readable hashed tool names. */
function slugOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^a-zA-Z0-9_-]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
}

/** `skill_<slug>_<hash>`: valid whatever the name, and stable across processes. */
function hashedToolName(name: string): string {
  const slug = slugOf(name);
  const hash = fnv1a(name);
  const room = 64 - SKILL_TOOL_PREFIX.length - 1 - HASH_LENGTH;
  return slug ? `${SKILL_TOOL_PREFIX}${slug.slice(0, room)}_${hash}` : `${SKILL_TOOL_PREFIX}${hash}`;
}

/** The last resort when two skills would share a tool name. */
function doubleHashedToolName(name: string): string {
  return `${SKILL_TOOL_PREFIX}${fnv1a(name)}${fnv1a(`${name}\u0000`)}`;
}

/**
 * The `skill_<name>` tool name of a skill. Names that already fit the provider rule map
 * to themselves; any other name (Unicode, spaces, too long) maps to its ASCII part plus a
 * hash of the full name, so the mapping is deterministic (a tool call in last week's
 * history still resolves) and two names never share a tool by accident.
 */
export function skillToolName(name: string): string {
  const direct = SKILL_TOOL_PREFIX + name;
  if (TOOL_NAME_PATTERN.test(direct) && !RESERVED_TOOL_NAMES.has(direct)) return direct;
  return hashedToolName(name);
}

/**
 * Every name a skill's tool may have, preferred first: its `skill_<name>`, then the hashed
 * forms used when that one is taken (by a framework, another skill or a host tool). All are
 * deterministic, so any session resolves any of them without knowing why it was chosen.
 */
export function skillToolNames(name: string): string[] {
  const names = [skillToolName(name), hashedToolName(name), doubleHashedToolName(name)];
  return [...new Set(names)];
}

/** The generic tool's names, preferred first (the others when a host tool is called `activate_skill`). */
export const ACTIVATE_SKILL_TOOL_NAMES: readonly string[] = [
  ACTIVATE_SKILL_TOOL,
  `skillshelf_${ACTIVATE_SKILL_TOOL}`,
  `${ACTIVATE_SKILL_TOOL}_${fnv1a(ACTIVATE_SKILL_TOOL)}`,
];

/**
 * Tool name ⇄ skill name for a set of skills. A name is only ever given to one skill
 * (collisions take the next deterministic form); `skillName` also resolves the alternative
 * forms, so a session that does not know the host's tools still understands a call to a
 * tool another session renamed because of them.
 */
export interface ToolNameIndex {
  toolName(skillName: string): string;
  skillName(toolName: string): string | undefined;
  /** The skill whose preferred tool name this is (a host tool of this name clashes with it). */
  ownerOf(toolName: string): string | undefined;
}

export function createToolNameIndex(skills: readonly Skill[]): ToolNameIndex {
  // Both maps are made on the first lookup that needs them: a plan only asks for the tool
  // names of its top candidates, which a name that cannot collide answers by itself (see
  // `uncontestedToolName`), and sorting and mapping every skill of a long list was a visible
  // part of a cold start's first plan.
  let maps: { byTool: Map<string, string>; bySkill: Map<string, string>; sorted: string[] } | undefined;
  const built = () => {
    if (maps) return maps;
    const byTool = new Map<string, string>();
    const bySkill = new Map<string, string>();
    const sorted = skills.map((s) => s.name).sort();
    for (const name of sorted) {
      let tool = skillToolName(name);
      if (byTool.has(tool) && byTool.get(tool) !== name) tool = doubleHashedToolName(name);
      byTool.set(tool, name);
      bySkill.set(name, tool);
    }
    maps = { byTool, bySkill, sorted };
    return maps;
  };
  // Alternative forms, built on the first lookup that needs one: a model only calls one after
  // a host tool took the preferred name, so most shelves never pay for this map.
  let alternatives: Map<string, string> | undefined;
  const alternative = (toolName: string): string | undefined => {
    if (!alternatives) {
      const { byTool, sorted } = built();
      alternatives = new Map();
      for (const name of sorted) {
        for (const tool of skillToolNames(name)) {
          if (!byTool.has(tool) && !alternatives.has(tool)) alternatives.set(tool, name);
        }
      }
    }
    return alternatives.get(toolName);
  };
  return {
    toolName: (skillName) =>
      (maps ? undefined : uncontestedToolName(skillName)) ??
      built().bySkill.get(skillName) ??
      skillToolName(skillName),
    skillName: (toolName) =>
      built().byTool.get(toolName) ??
      (toolName.startsWith(SKILL_TOOL_PREFIX) ? alternative(toolName) : undefined),
    ownerOf: (toolName) => built().byTool.get(toolName),
  };
}

/**
 * The name's own `skill_<name>`, when no other skill's tool can be that: another skill's
 * preferred name is `skill_<its own name>`, and the hashed forms end in `_<8 hex>` or are
 * `skill_<8 or 16 hex>` — a name that ends in none of these is never contested.
 */
function uncontestedToolName(name: string): string | undefined {
  const direct = SKILL_TOOL_PREFIX + name;
  if (!TOOL_NAME_PATTERN.test(direct) || RESERVED_TOOL_NAMES.has(direct)) return undefined;
  return HASHED_SHAPE.test(name) ? undefined : direct;
}

const HASHED_SHAPE = /(?:^|_)[0-9a-f]{8}$|^[0-9a-f]{16}$/u;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function sentence(text: string): string {
  return /[.!?。！？…]$/.test(text) ? text : `${text}.`;
}

/**
 * The description of a `skill_<name>` tool: what the skill does, when to use it and what it
 * is not for. The exclusions get their own budget so a long description never pushes them
 * out (a misfire costs more than a miss).
 */
export function skillToolDescription(skill: Skill): string {
  const fork = skill.context === "fork";
  const verb = fork ? `Run the "${skill.name}" skill in a sub-agent.` : `Activate the "${skill.name}" skill.`;
  const parts = [`${verb} ${sentence(clip(skill.description, 500))}`];
  if (skill.whenToUse) parts.push(`Use when: ${sentence(clip(skill.whenToUse, 200))}`);
  if (skill.exclusions.length > 0) parts.push(`Not for: ${sentence(clip(skill.exclusions.join("; "), 200))}`);
  if (skill.allowedTools) {
    parts.push(
      skill.allowedTools.length > 0
        ? `While active, tools are limited to: ${clip(skill.allowedTools.join(", "), 80)}.`
        : "While active, no other tools can be used.",
    );
  }
  parts.push(
    fork
      ? "It works in its own context and answers with its result; give it the task as `args`."
      : "Loads its instructions; call it before starting such a task.",
  );
  return parts.join(" ");
}

function argsProperty(skill: Skill | undefined): Record<string, unknown> {
  const hint = skill?.argumentHint ?? (skill?.arguments.length ? skill.arguments.join(" ") : undefined);
  if (skill?.context === "fork") {
    return {
      type: "string",
      description: `The sub-agent's task${hint ? ` (${hint})` : ""}; default: the user's request.`,
    };
  }
  return {
    type: "string",
    description: hint ? `Arguments for the skill: ${hint}` : "Optional arguments for the skill.",
  };
}

/** A forked skill always takes its task: the sub-agent reads nothing of the conversation. */
function takesArguments(skill: Skill): boolean {
  return (
    skill.context === "fork" ||
    Boolean(skill.argumentHint) ||
    skill.arguments.length > 0 ||
    bodyMentionsArguments(skill)
  );
}

/**
 * A skill's parameter schema as a tool's input schema: the model fills the typed arguments
 * (enums, formats, defaults, required) in the call itself. `$schema` and `$id` are left out:
 * providers' tool schemas take neither, and references stay local (`#/definitions/…`).
 */
function parametersInputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const FILL_FROM_CURRENT_REQUEST =
  " Fill its arguments from the user's current request only, not from earlier messages, unless the request refers back to them.";

/** The `skill_<name>` tool for one candidate. */
export function skillToolSpec(skill: Skill, toolName: string = skillToolName(skill.name)): ToolSpec {
  const typed = skillParameters(skill);
  if (typed.parameters) {
    return {
      name: toolName,
      description: skillToolDescription(skill) + FILL_FROM_CURRENT_REQUEST,
      inputSchema: parametersInputSchema(typed.parameters.schema),
    };
  }
  return {
    name: toolName,
    description: skillToolDescription(skill),
    inputSchema: {
      type: "object",
      properties: !typed.broken && takesArguments(skill) ? { args: argsProperty(skill) } : {},
      additionalProperties: false,
    },
  };
}

/** The `activate_skill` tool for every other offered skill (undefined when there are none). */
export function activateSkillToolSpec(
  names: readonly string[],
  toolName: string = ACTIVATE_SKILL_TOOL,
): ToolSpec | undefined {
  if (names.length === 0) return undefined;
  return {
    name: toolName,
    description:
      "Activate a skill listed in the skill catalog of the system prompt, to load its instructions. " +
      "Call it only when the user's request clearly matches the skill's description and is not among what it is not for.",
    inputSchema: {
      type: "object",
      properties: {
        name: {
          type: "string",
          enum: [...names],
          description: "The skill's name, exactly as in the catalog.",
        },
        args: argsProperty(undefined),
        arguments: {
          type: "object",
          description:
            "For a skill that takes typed parameters: its arguments as an object, from the user's current request only. " +
            "If they do not fit, the result says which fields to send and how.",
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
  };
}

/** The end tool's names, preferred first (the others when a host tool has the name). */
export const END_SKILL_TOOL_NAMES: readonly string[] = [
  "end_skill",
  "skillshelf_end_skill",
  `end_skill_${fnv1a("end_skill")}`,
];

/**
 * One of skillshelf's fixed tools as registered while a step does not offer it: hidden from
 * the model, there only so that a call to it reaches the session (one object per name).
 */
const unofferedSpecs = new Map<string, ToolSpec>();

export function unofferedToolSpec(toolName: string): ToolSpec {
  let spec = unofferedSpecs.get(toolName);
  if (!spec) {
    spec = {
      name: toolName,
      description: "Not offered on this step.",
      inputSchema: { type: "object", properties: {}, additionalProperties: true },
    };
    if (unofferedSpecs.size >= 64) unofferedSpecs.clear();
    unofferedSpecs.set(toolName, spec);
  }
  return spec;
}

/** The tool the model calls when an active skill's task is done. */
export function endSkillToolSpec(
  active: readonly string[],
  toolName: string = END_SKILL_TOOL_NAMES[0]!,
): ToolSpec {
  return {
    name: toolName,
    description:
      "End an active skill once its task is done (its instructions leave the prompt). " +
      "Call it when you have finished what the skill was activated for, before you answer something unrelated.",
    inputSchema: {
      type: "object",
      properties: {
        name: {
          type: "string",
          enum: [...active],
          description: "The skill to end (default: every active skill).",
        },
      },
      additionalProperties: false,
    },
  };
}

/**
 * The skill name and arguments in an activation tool call's input, or what is wrong with it.
 * `values` is the object a skill with typed parameters is checked against: the whole input of
 * its `skill_<name>` tool, or the `arguments` object of `activate_skill`.
 */
export function readActivationInput(
  input: unknown,
  needsName: boolean,
):
  | { ok: true; name?: string; args?: string; values?: Record<string, unknown> }
  | { ok: false; problem: string } {
  let value = input;
  if (typeof value === "string") {
    // Some hosts hand over the raw JSON text of the arguments.
    try {
      value = value.trim() === "" ? {} : JSON.parse(value);
    } catch {
      return { ok: false, problem: "the input is not a JSON object" };
    }
  }
  if (value === undefined || value === null) value = {};
  if (typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, problem: "the input must be an object" };
  }
  const record = value as Record<string, unknown>;
  const values = needsName ? typedArguments(record.arguments) : record;
  let args: string | undefined;
  if (record.args !== undefined && record.args !== null) {
    if (typeof record.args === "string") args = record.args;
    else if (
      Array.isArray(record.args) &&
      record.args.every((a) => typeof a === "string" || typeof a === "number")
    ) {
      args = record.args.map(String).join(" ");
    } else return { ok: false, problem: '"args" must be a string' };
  }
  if (!needsName) return { ok: true, args, values };
  if (typeof record.name !== "string" || record.name.trim() === "") {
    return { ok: false, problem: '"name" (the skill to activate) is missing' };
  }
  return { ok: true, name: record.name.trim(), args, values };
}

/** `activate_skill`'s `arguments`: an object, or its JSON text (some models send it as a string). */
function typedArguments(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof parsed === "string") {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return undefined;
    }
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/** The confined reader's names, preferred first (the others when a host tool has the name). */
export const READ_SKILL_FILE_TOOL_NAMES: readonly string[] = [
  "read_skill_file",
  "skillshelf_read_skill_file",
  `read_skill_file_${fnv1a("read_skill_file")}`,
];

/** The script runner's names, preferred first. */
export const RUN_SKILL_SCRIPT_TOOL_NAMES: readonly string[] = [
  "run_skill_script",
  "skillshelf_run_skill_script",
  `run_skill_script_${fnv1a("run_skill_script")}`,
];

/** The tool that reads a file of an active skill's own folder, a page at a time. */
export function readSkillFileToolSpec(
  active: readonly string[],
  toolName: string = READ_SKILL_FILE_TOOL_NAMES[0]!,
): ToolSpec {
  return {
    name: toolName,
    description:
      "Read a file that comes with an active skill (references/, assets/, scripts/ …, as listed when it was activated), " +
      "by its path relative to the skill's folder. Text comes back 64 KiB at a time (continue with the offset it gives); " +
      "binary files are described, not shown. Read a file only when the skill's instructions call for it.",
    inputSchema: {
      type: "object",
      properties: {
        skill: {
          type: "string",
          enum: [...active],
          description: "The active skill whose file to read (default: the only active one).",
        },
        path: {
          type: "string",
          description: 'The file, relative to the skill folder, e.g. "references/api.md".',
        },
        offset: { type: "integer", minimum: 0, description: "Byte offset to start at (default 0)." },
        limit: { type: "integer", minimum: 1, description: "Bytes to read (default and most: 65536)." },
      },
      required: ["path"],
      additionalProperties: false,
    },
  };
}

/** The tool that runs one of an active skill's scripts (the host approves every run). */
export function runSkillScriptToolSpec(
  scripts: ReadonlyArray<{ skill: string; scripts: readonly string[] }>,
  toolName: string = RUN_SKILL_SCRIPT_TOOL_NAMES[0]!,
): ToolSpec {
  const listed = scripts.map((s) => `${s.skill}: ${clip(s.scripts.join(", "), 300)}`).join("; ");
  return {
    name: toolName,
    description:
      `Run a script of an active skill (from its scripts/ folder) when its instructions say to. The user is asked to approve each run; ` +
      `the result gives the exit code and the end of its output. Scripts: ${listed}.`,
    inputSchema: {
      type: "object",
      properties: {
        skill: {
          type: "string",
          enum: scripts.map((s) => s.skill),
          description: "The active skill whose script to run (default: the only one with scripts).",
        },
        script: {
          type: "string",
          description: 'The script, relative to the skill folder, e.g. "scripts/check.py".',
        },
        args: { type: "array", items: { type: "string" }, description: "Command-line arguments (no shell)." },
      },
      required: ["script"],
      additionalProperties: false,
    },
  };
}
