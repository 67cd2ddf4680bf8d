/**
 * Lenient mode's YAML repairs, for mistakes real SKILL.md files make by the thousand. When a
 * frontmatter fails to parse, it is retried once with the values YAML rejects quoted:
 *
 * - `description: Use when: ...`, a plain value containing ": " (the Agent Skills client
 *   guide's one repair);
 * - `description: | text` or `description: > text`, a block header with its text on the same
 *   line (a generator bug upstream): read as the text after the header;
 * - a one-line value that starts with a character YAML reserves or reads as structure and
 *   that YAML rejects on its own: `@scope/pkg`, `` `cmd` ``, `%`, `[a] [b]` (Claude Code's
 *   documented `argument-hint` form), `"quoted" and more`, `*emphasis*`.
 *
 * Every repair keeps each line where it was, so line numbers stay true, and never touches the
 * inside of a `|` or `>` block, whose text is the user's. Values of the fields that limit a
 * skill (`allowed-tools` and the rest, and their near misses) are never guessed at beyond the
 * ": " repair: a file whose tool list YAML cannot read stays rejected rather than loading
 * with a list nobody wrote.
 */

import { FIELD_BY_KEY } from "./schema.js";
import { isSecurityField, nearMissSecurityField } from "./security-fields.js";
import { yamlLib } from "./yaml-lib.js";

/** `key: value` or `- key: value`, the key a plain identifier (`description`, `allowed-tools`). */
const KEY_VALUE = /^([ \t]*(?:-[ \t]+)?)([A-Za-z_][\w.-]*)(:)([ \t]+)(.*?)[ \t]*$/;
/** Values YAML reads as something other than a plain scalar: the ": " repair leaves those alone. */
const NOT_PLAIN = /^["'|>[{&*!%@`#]/;
/** A colon YAML would read as a mapping indicator: followed by a space or the end. */
const INNER_COLON = /:(?:[ \t]|$)/;
/** A block scalar header: `|`, `>-`, `|2+`, optionally followed by a comment. */
const BLOCK_HEADER = /^[|>][0-9+-]*(?:[ \t]+#.*)?$/;
/** A block scalar header with text after it on the same line: the text is group 1. */
const HEADER_WITH_TEXT = /^[|>][0-9+-]*[ \t]+([^#\s].*)$/;
/** Characters a plain value may never start with. */
const RESERVED_START = /^[@`%]/;
/** Starts that may be fine YAML (a list, a quoted string, an alias) or not: tried on their own. */
const MAYBE_START = /^["'[{*]/;
/** What a rejected value starting with `[`, `{` or a quote must look like to be read as text. */
const CLOSED_QUOTE = /^(["']).*\1/;

export type RepairKind = "colon" | "block-header" | "indicator";

export interface RecoveredYaml {
  yaml: string;
  /** 0-based indexes of the lines that were changed, in order. */
  lines: number[];
  /** What was done to each of `lines`, in the same order. */
  kinds: RepairKind[];
}

/** The YAML with the values YAML rejects quoted, or undefined if none were found. */
export function quoteUnreadableValues(yaml: string): RecoveredYaml | undefined {
  const lines = yaml.split("\n");
  const changed: number[] = [];
  const kinds: RepairKind[] = [];
  /** Indentation of the key that opened a block scalar; deeper lines are its content. */
  let blockOwnerIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = line.length - line.trimStart().length;
    if (blockOwnerIndent >= 0) {
      if (line.trim() === "" || indent > blockOwnerIndent) continue;
      blockOwnerIndent = -1;
    }
    const match = KEY_VALUE.exec(line);
    if (match === null) continue;
    const [, lead, key, colon, space, value] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (BLOCK_HEADER.test(value)) {
      blockOwnerIndent = indent;
      continue;
    }
    if (value === "") continue;
    const quoted = (text: string, kind: RepairKind) => {
      lines[i] = `${lead}${key}${colon}${space}${doubleQuoted(text)}`;
      changed.push(i);
      kinds.push(kind);
    };
    if (!NOT_PLAIN.test(value)) {
      if (INNER_COLON.test(value)) quoted(value, "colon");
      continue;
    }
    // The other repairs read a whole value from its one line: not when lines below continue it.
    if (continuesBelow(lines, i, lead.length) || limitsTools(lead, key)) continue;
    const headerText = HEADER_WITH_TEXT.exec(value)?.[1];
    if (headerText !== undefined) quoted(headerText, "block-header");
    else if (RESERVED_START.test(value) || (MAYBE_START.test(value) && closedRejected(value)))
      quoted(value, "indicator");
  }
  return changed.length === 0 ? undefined : { yaml: lines.join("\n"), lines: changed, kinds };
}

function doubleQuoted(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** Whether the next non-blank line is indented past the key (a continuation of its value). */
function continuesBelow(lines: readonly string[], index: number, keyColumn: number): boolean {
  for (let j = index + 1; j < lines.length; j++) {
    const next = lines[j]!;
    if (next.trim() === "") continue;
    return next.length - next.trimStart().length > keyColumn;
  }
  return false;
}

/** A top-level key that is, or looks like, one of the fields limiting what the skill may do. */
function limitsTools(lead: string, key: string): boolean {
  if (lead !== "") return false;
  const spec = FIELD_BY_KEY.get(key) ?? FIELD_BY_KEY.get(key.toLowerCase().replaceAll("_", "-"));
  return spec !== undefined ? isSecurityField(spec) : nearMissSecurityField(key) !== undefined;
}

/**
 * A value that closes what it opens (`[a] [b]`, `"a" and b`, `*a* b`) yet YAML rejects: the
 * author wrote text. One that leaves a bracket or quote open (`[a, b`) is a real typo and is
 * left for the syntax error to point at.
 */
function closedRejected(value: string): boolean {
  const first = value[0];
  if (first === "[" || first === "{") {
    if (!balanced(value)) return false;
  } else if (first === '"' || first === "'") {
    if (!CLOSED_QUOTE.test(value)) return false;
  }
  return rejectedAlone(value);
}

function balanced(value: string): boolean {
  let depth = 0;
  for (const c of value) {
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (--depth < 0) return false;
    }
  }
  return depth === 0;
}

/** Whether YAML rejects `value` as the value of one key, on its own. */
function rejectedAlone(value: string): boolean {
  return (
    yamlLib().parseDocument(`k: ${value}`, { logLevel: "silent", prettyErrors: false }).errors.length > 0
  );
}
