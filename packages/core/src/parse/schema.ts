/**
 * The frontmatter schema: one zod schema per known field that both checks the value and
 * normalises it to the single shape SkillMeta uses (lists from strings, strings from
 * numbers, booleans from "true"/"false"). Fields are checked one by one so a bad value
 * costs only that field in lenient mode, with a diagnostic pointing at its line.
 */
import { z } from "zod";
import type { SkillMeta } from "../types.js";

/** A scalar YAML may give us where we want text: `version: 2` is still the text "2". */
const scalarText = z.union([z.string(), z.number(), z.boolean()]).transform(String);

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

const stringList = z
  .array(scalarText)
  .transform((items) => items.map((s) => s.trim()).filter((s) => s !== ""));

/** Trigger/exclusion phrases: a list, or one string of comma-separated phrases. */
const phrases = z.union([z.string().transform(splitPhraseList), stringList]);

/** Example requests: a list, or one string that is one example (examples are sentences). */
const sentences = z.union([z.string().transform((s) => (s.trim() === "" ? [] : [s.trim()])), stringList]);

/** `a b c` or a list: arguments are single words. */
const words = z.union([z.string().transform((s) => s.split(/\s+/).filter((s) => s !== "")), stringList]);

/** Tool names/patterns: a list, or one string separated by commas or spaces. */
const tools = z.union([z.string().transform(splitToolList), stringList]);

const TRUE_WORDS = new Set(["true", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "no", "off"]);
const flag = z.union([
  z.boolean(),
  z
    .string()
    .refine((s) => TRUE_WORDS.has(s.trim().toLowerCase()) || FALSE_WORDS.has(s.trim().toLowerCase()))
    .transform((s) => TRUE_WORDS.has(s.trim().toLowerCase())),
]);

/** A number; numbers arrive as their source text (`10`, `-1`, `2.5`, `1e3`) and are read here. */
const priority = z.union([
  z.number().finite(),
  z
    .string()
    .refine((s) => s.trim() !== "" && Number.isFinite(Number(s)))
    .transform(Number),
]);

function isPlainMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Spec: metadata is a string → string map; other scalars are coerced, structures JSON-encoded. */
const metadata = z.custom<Record<string, unknown>>(isPlainMapping).transform((map) => {
  const out: Record<string, string> = {};
  for (const key of Object.keys(map)) defineOwn(out, key, metadataValue(map[key]));
  return out;
});

function metadataValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Sets a key as an own data property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; defineProperty never touches a prototype.
 */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** How each known field is checked, what the user is told it expects, and where it lands. */
export interface FieldSpec {
  /** Key in SkillMeta. */
  prop: keyof SkillMeta;
  schema: z.ZodType;
  /** For messages: "`x` should be <expects>". */
  expects: string;
  /** The documented spelling (for messages and `key-case` hints). */
  key: string;
}

function field(key: string, prop: keyof SkillMeta, schema: z.ZodType, expects: string): FieldSpec {
  return { key, prop, schema, expects };
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
  field("argument-hint", "argumentHint", scalarText, "a string"),
  field("arguments", "arguments", words, "a list of argument names, or one space-separated string"),
  field("version", "version", scalarText, 'a version string (e.g. "1.2.0")'),
  field("role", "role", flag, "true or false"),
  field("model", "model", scalarText, "a model id string"),
  field("priority", "priority", priority, "a number"),
  field("group", "group", scalarText, "a string"),
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
