/**
 * The Agent Skills client guide's one YAML repair: many hand-written SKILL.md files have
 * `description: Use when: ...` — a plain value containing ": ", which YAML rejects. When
 * a frontmatter fails to parse, lenient mode retries once with such values quoted. The
 * repair keeps every line where it was, so line numbers stay true, and never touches the
 * inside of a `|` or `>` block, whose text is the user's.
 */

/** `key: value` or `- key: value`, the key a plain identifier (`description`, `allowed-tools`). */
const KEY_VALUE = /^([ \t]*(?:-[ \t]+)?[A-Za-z_][\w.-]*:)([ \t]+)(.*?)[ \t]*$/;
/** Values YAML reads as something other than a plain scalar: leave those alone. */
const NOT_PLAIN = /^["'|>[{&*!%@`#]/;
/** A colon YAML would read as a mapping indicator: followed by a space or the end. */
const INNER_COLON = /:(?:[ \t]|$)/;
/** A block scalar header: `|`, `>-`, `|2+`, optionally followed by a comment. */
const BLOCK_HEADER = /^[|>][0-9+-]*(?:[ \t]+#.*)?$/;

export interface QuotedYaml {
  yaml: string;
  /** 0-based indexes of the lines that were changed. */
  lines: number[];
}

/** The YAML with colon-containing plain values double-quoted, or undefined if none were found. */
export function quoteColonValues(yaml: string): QuotedYaml | undefined {
  const lines = yaml.split("\n");
  const changed: number[] = [];
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
    const [, key, space, value] = match as unknown as [string, string, string, string];
    if (BLOCK_HEADER.test(value)) {
      blockOwnerIndent = indent;
      continue;
    }
    if (value === "" || NOT_PLAIN.test(value) || !INNER_COLON.test(value)) continue;
    lines[i] = `${key}${space}"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
    changed.push(i);
  }
  return changed.length === 0 ? undefined : { yaml: lines.join("\n"), lines: changed };
}
