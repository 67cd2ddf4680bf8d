/**
 * The fields that limit what a skill may do: `allowed-tools`, `disallowed-tools`,
 * `disable-model-invocation`. Elsewhere a value the parser cannot read is ignored with a
 * warning; here ignoring it would lift the limit the author meant to set, so these fail
 * closed: a value that is not one of the documented forms, or a key that is a near miss of
 * one of these (`allowedTools`, `allowed-tool`, Claude Code sub-agents' `tools`), makes
 * the skill maximally restricted (no tools at all; only the user can run it).
 */
import type { SkillMeta } from "../types.js";
import { FIELD_BY_KEY, type FieldSpec } from "./schema.js";

export type SecurityProp = "allowedTools" | "disallowedTools" | "disableModelInvocation";

const SECURITY_PROPS: ReadonlySet<keyof SkillMeta> = new Set<SecurityProp>([
  "allowedTools",
  "disallowedTools",
  "disableModelInvocation",
]);

export function isSecurityField(spec: FieldSpec): boolean {
  return SECURITY_PROPS.has(spec.prop);
}

/** Letters and digits only, lower case: `allowed_tools`, `AllowedTools`, `allowed tools` are one word. */
function squash(key: string): string {
  // Every unknown key of every skill comes here: most are ASCII, where the Unicode classes
  // match exactly the ASCII letters and digits, and the ASCII pattern is several times faster.
  return NON_ASCII.test(key)
    ? key.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")
    : key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

const NON_ASCII = /[^\x00-\x7f]/;

const SECURITY_SPECS = [...new Set(FIELD_BY_KEY.values())]
  .filter(isSecurityField)
  .map((spec) => ({ spec, squashed: squash(spec.key) }));

/** Keys other formats use for a tool whitelist (Claude Code sub-agents, Copilot agents). */
const FOREIGN_NAMES: ReadonlyMap<string, string> = new Map([
  ["tools", "allowed-tools"],
  ["tool", "allowed-tools"],
  ["allowed", "allowed-tools"],
  ["disallowed", "disallowed-tools"],
]);

/** Edits a misspelling may be away from the field: two catch a dropped `s` and a typo. */
const MAX_EDITS = 2;

/**
 * The security field an unknown key is a near miss of: the same letters in another case
 * or with other separators (`allowedTools`), at most two edits away (`allowed-tool`,
 * `alowed-tools`), or another format's name for it (`tools`). Keys that are accepted
 * spellings of a field never get here.
 */
export function nearMissSecurityField(key: string): FieldSpec | undefined {
  const squashed = squash(key);
  const foreign = FOREIGN_NAMES.get(squashed);
  if (foreign !== undefined) return FIELD_BY_KEY.get(foreign);
  for (const { spec, squashed: target } of SECURITY_SPECS) {
    if (editDistanceAtMost(squashed, target, MAX_EDITS)) return spec;
  }
  return undefined;
}

/** Levenshtein distance ≤ max, in O(length × max): keys are short, but a hostile one may not be. */
function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < best) best = value;
    }
    if (best > max) return false;
    previous = current;
  }
  return previous[b.length]! <= max;
}

/** What fail-closed means for the field: what the skill loads as. */
export function restrictionOf(spec: FieldSpec): string {
  return spec.prop === "disableModelInvocation"
    ? "the skill is read as `disable-model-invocation: true` (only the user can run it)"
    : "the skill loads with no tools allowed";
}

/** How to write the field, for the hint of a value that could not be read. */
export function securityFieldHint(spec: FieldSpec): string {
  switch (spec.prop) {
    case "disableModelInvocation":
      return "Write `disable-model-invocation: true` or `disable-model-invocation: false`.";
    case "allowedTools":
      return "List the tools as names (`allowed-tools: Read Grep` or `allowed-tools: [Read, Grep]`); `allowed-tools: []` allows none; delete the line to set no limit.";
    default:
      return "List the tools as names (`disallowed-tools: Bash Write` or `disallowed-tools: [Bash, Write]`), or delete the line.";
  }
}

/** Makes `meta` as restricted as a failed field requires. */
export function failClosed(meta: SkillMeta, failed: ReadonlySet<SecurityProp>): void {
  if (failed.has("allowedTools") || failed.has("disallowedTools")) meta.allowedTools = [];
  if (failed.has("disableModelInvocation")) meta.disableModelInvocation = true;
}
