/**
 * The frontmatter schema: one check per known field that both validates the value and
 * normalises it to the single shape SkillMeta uses (lists from strings, strings from
 * numbers, booleans from "true"/"false"). Fields are checked one by one so a bad value
 * costs only that field in lenient mode, with a diagnostic pointing at its line.
 *
 * Plain functions with zod's `safeParse` result shape, not zod schemas: these run for
 * every field of every skill on load, and in a fresh process zod's first few thousand
 * parses cost ≈ 10 ms per 1,000 skills for checks this small (bench/RESULTS.md,
 * "Loading"); parsing no longer imports zod (≈ 50 ms of module loading). The zod schemas
 * they replace are kept in schema-zod-parity.test.ts, which pins the two together.
 */
import type { SkillMeta } from "../types.js";
import { readCount, readSeconds, readSteps } from "../workflow/step-fields.js";

export type FieldCheck<T = unknown> = { success: true; data: T } | { success: false };

/** A field's check: the raw YAML value in, the SkillMeta value (or a refusal) out. */
export interface FieldSchema<T = unknown> {
  safeParse(value: unknown): FieldCheck<T>;
}

const REFUSED: FieldCheck<never> = Object.freeze({ success: false });

function schema<T>(read: (value: unknown) => T | undefined): FieldSchema<T> {
  return {
    safeParse(value) {
      const data = read(value);
      return data === undefined ? REFUSED : { success: true, data };
    },
  };
}

/** A scalar YAML may give us where we want text: `version: 2` is still the text "2". */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return String(value);
  // Like z.number(): NaN and the infinities are not numbers a field can hold.
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  return undefined;
}

/**
 * Splits a one-string list on `separators`, except inside brackets: a separator within
 * `(...)`, `[...]` or `{...}` belongs to the item (`Bash(gh issue:*)`, `/a{1,3}/`).
 */
function splitOutside(value: string, separators: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = value[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if (c === undefined || (depth === 0 && separators.includes(c))) {
      const item = value.slice(start, i).trim();
      if (item !== "") items.push(item);
      start = i + 1;
    }
  }
  return items;
}

/** Tool lists as one string: `Read Grep`, `Read, Grep`, `Bash(git log:*) Read`. */
export function splitToolList(value: string): string[] {
  return splitOutside(value, ", \t\n");
}

/**
 * Trigger and exclusion phrases as one string: `a, b; c` or one per line. A `/regex/`
 * is one pattern whatever it contains.
 */
export function splitPhraseList(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.length > 1 && trimmed.startsWith("/") && trimmed.endsWith("/")) return [trimmed];
  return splitOutside(value, ",;\n");
}

/** A list of scalars, trimmed, empty items dropped; any other item refuses the whole list. */
function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const text = i in value ? scalarText(value[i]) : undefined;
    if (text === undefined) return undefined;
    const item = text.trim();
    if (item !== "") items.push(item);
  }
  return items;
}

/** A one-string form (split by `split`) or a list. */
function stringOrList(split: (value: string) => string[]): (value: unknown) => string[] | undefined {
  return (value) => (typeof value === "string" ? split(value) : stringList(value));
}

/** Trigger/exclusion phrases: a list, or one string of comma-separated phrases. */
const phrases = stringOrList(splitPhraseList);

/** Example requests: a list, or one string that is one example (examples are sentences). */
const sentences = stringOrList((s) => (s.trim() === "" ? [] : [s.trim()]));

/** `a b c` or a list: arguments are single words. */
const words = stringOrList((s) => s.split(/\s+/).filter((s) => s !== ""));

/** Tool names/patterns: a list, or one string separated by commas or spaces. */
const tools = stringOrList(splitToolList);

/** Claude Code's `paths` as one string: globs separated by commas or lines (a `{a,b}` group stays whole). */
export function splitGlobList(value: string): string[] {
  return splitOutside(value, ",\n");
}

/** Path globs: a list, or one comma-separated string. */
const globs = stringOrList(splitGlobList);

/**
 * Claude Code's `argument-hint`: documented as `[issue-number]`, which YAML reads as a
 * list; a list is shown as the text it was written as, `[a, b]`.
 */
function argumentHint(value: unknown): string | undefined {
  if (!Array.isArray(value)) return scalarText(value);
  const items = stringList(value);
  return items === undefined ? undefined : `[${items.join(", ")}]`;
}

/** `context`: Claude Code's one value, `fork` (run in a sub-agent with its own context). */
function context(value: unknown): "fork" | undefined {
  return typeof value === "string" && value.trim().toLowerCase() === "fork" ? "fork" : undefined;
}

const EFFORT_LEVELS = new Set(["low", "medium", "high", "xhigh", "max"]);
/** `effort`: one of Claude Code's levels. */
function effort(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const level = value.trim().toLowerCase();
  return EFFORT_LEVELS.has(level) ? level : undefined;
}

/** `parameters`: a JSON Schema mapping, checked in full when the skill is first offered or activated. */
function parameterSchema(value: unknown): Record<string, unknown> | undefined {
  return isPlainMapping(value) ? value : undefined;
}

/** `hooks`: a mapping, kept as YAML means it (skillshelf never runs it). */
function hooks(value: unknown): Record<string, unknown> | undefined {
  return isPlainMapping(value) ? value : undefined;
}

const TRUE_WORDS = new Set(["true", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "no", "off"]);
function flag(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : undefined;
}

/** A number; numbers arrive as their source text (`10`, `-1`, `2.5`, `1e3`) and are read here. */
function priority(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

function isPlainMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Spec: metadata is a string → string map; other scalars are coerced, structures JSON-encoded. */
function metadata(value: unknown): Record<string, string> | undefined {
  if (!isPlainMapping(value)) return undefined;
  const out: Record<string, string> = {};
  for (const key of Object.keys(value)) defineOwn(out, key, metadataValue(value[key]));
  return out;
}

function metadataValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Sets a key as an own data property. Plain assignment of `__proto__` would replace the
 * object's prototype instead, and a key the prototype chain holds may be a setter or
 * read-only (frozen intrinsics); defineProperty never touches a prototype. Any other key is
 * assigned, which makes the same property and is several times faster (every key of every
 * skill's `metadata` comes here).
 */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in target)
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** How each known field is checked, what the user is told it expects, and where it lands. */
export interface FieldSpec {
  /** Key in SkillMeta. */
  prop: keyof SkillMeta;
  schema: FieldSchema;
  /** For messages: "`x` should be <expects>". */
  expects: string;
  /** The documented spelling (for messages and `key-case` hints). */
  key: string;
  /** Read the value exactly as YAML means it (numbers as numbers), not as text. */
  raw?: boolean;
  /** A field whose refusal skips the skill, each reason its own error (a broken workflow must not run as prose). */
  problems?: (value: unknown) => string[];
}

function field<T>(
  key: string,
  prop: keyof SkillMeta,
  read: (value: unknown) => T | undefined,
  expects: string,
  raw = false,
): FieldSpec {
  return raw
    ? { key, prop, schema: schema(read), expects, raw }
    : { key, prop, schema: schema(read), expects };
}

const FIELDS: readonly FieldSpec[] = [
  field("name", "name", scalarText, "a string"),
  field("description", "description", scalarText, "a string"),
  field("license", "license", scalarText, "a string"),
  field("compatibility", "compatibility", scalarText, "a string"),
  field("metadata", "metadata", metadata, "a mapping of keys to string values"),
  field("when_to_use", "whenToUse", scalarText, "a string"),
  field("triggers", "triggers", phrases, "a list of phrases (or one comma-separated string)"),
  field("exclusions", "exclusions", phrases, "a list of phrases (or one comma-separated string)"),
  field("examples", "examples", sentences, "a list of example requests (or one)"),
  field("allowed-tools", "allowedTools", tools, "a list of tool names, or one string of names"),
  field("disallowed-tools", "disallowedTools", tools, "a list of tool names, or one string of names"),
  field("disable-model-invocation", "disableModelInvocation", flag, "true or false"),
  field("user-invocable", "userInvocable", flag, "true or false"),
  field("argument-hint", "argumentHint", argumentHint, "a string (or a list such as `[issue-number]`)"),
  field("arguments", "arguments", words, "a list of argument names, or one space-separated string"),
  field("parameters", "parameters", parameterSchema, "a JSON Schema mapping (`type: object`)", true),
  field("version", "version", scalarText, 'a version string (e.g. "1.2.0")'),
  field("role", "role", flag, "true or false"),
  field("model", "model", scalarText, "a model id string"),
  field("priority", "priority", priority, "a number"),
  field("group", "group", scalarText, "a string"),
  // Claude Code's skill fields (code.claude.com/docs/en/skills, "Frontmatter reference").
  field("context", "context", context, "`fork`"),
  field("agent", "agent", scalarText, "a sub-agent name"),
  field("paths", "paths", globs, "a list of path globs (or one comma-separated string)"),
  field("hooks", "hooks", hooks, "a mapping of hook events", true),
  field("effort", "effort", effort, "one of `low`, `medium`, `high`, `xhigh`, `max`"),
  // Seed 004: the shelf a skill sits on, and its ordered steps.
  field("domain", "domain", scalarText, "a string"),
  {
    ...field("steps", "steps", (value) => readSteps(value).steps, "a list of steps", true),
    problems: (value) => readSteps(value).problems,
  },
  field("step-timeout", "stepTimeout", readSeconds, 'a number of seconds (e.g. 300 or "5m")', true),
  field("step-retries", "stepRetries", readCount, "a whole number", true),
];

/**
 * Every accepted spelling → its field. The documented spelling first; snake_case and
 * kebab-case variants are accepted too, and `not_for` is an alias of `exclusions`.
 * A Map, not an object, so a `__proto__` or `constructor` key can never match anything.
 */
export const FIELD_BY_KEY: ReadonlyMap<string, FieldSpec> = (() => {
  const map = new Map<string, FieldSpec>();
  for (const spec of FIELDS) {
    map.set(spec.key, spec);
    map.set(spec.key.replaceAll("_", "-"), spec);
    map.set(spec.key.replaceAll("-", "_"), spec);
  }
  const exclusions = map.get("exclusions")!;
  map.set("not_for", exclusions);
  map.set("not-for", exclusions);
  return map;
})();

/** The spellings that are not merely tolerated: these never draw a `key-case` diagnostic. */
export const KNOWN_FIELD_KEYS: readonly string[] = [...FIELD_BY_KEY.keys()];

/** The spec's own fields (agentskills.io); everything else is an extension. */
export const SPEC_FIELD_KEYS: readonly string[] = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];
