/**
 * Splitting a SKILL.md into its YAML frontmatter and Markdown body. Line-based on purpose:
 * a `---` only counts as a fence when it is a whole line, so a horizontal rule in the body
 * or `---` inside a YAML value never cuts the file in the wrong place.
 */

export type FrontmatterSplit =
  | {
      kind: "ok";
      /** The YAML between the fences (may be empty). */
      yaml: string;
      /** 1-based file line of the first YAML line (the line after the opening fence). */
      yamlLine: number;
      /** Body with leading blank lines and trailing whitespace removed. */
      body: string;
      /** 1-based file line where `body` starts. */
      bodyLine: number;
    }
  | { kind: "none" }
  | { kind: "unclosed" };

/** `---` alone on a line; trailing spaces tolerated, as YAML tolerates them. */
const OPENING_FENCE = /^---[ \t]*(?:\n|$)/;
const CLOSING_FENCE = /^---[ \t]*$/gm;
const LEADING_BLANK_LINES = /^(?:[ \t]*\n)*/;

/**
 * `text` must already have its BOM removed and its line endings normalised to `\n`
 * (parseSkill does both), so offsets and line numbers agree with the YAML parser's.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const opening = OPENING_FENCE.exec(text);
  if (opening === null) return { kind: "none" };
  const yamlStart = opening[0].length;
  if (yamlStart === text.length) return { kind: "unclosed" };

  CLOSING_FENCE.lastIndex = yamlStart;
  const closing = CLOSING_FENCE.exec(text);
  if (closing === null) return { kind: "unclosed" };

  const yaml = text.slice(yamlStart, closing.index);
  const afterFence = closing.index + closing[0].length;
  // Skip the fence's own newline, then any blank lines, counting them for bodyLine.
  const bodyStart = afterFence < text.length ? afterFence + 1 : afterFence;
  const rest = text.slice(bodyStart);
  const blank = LEADING_BLANK_LINES.exec(rest)![0];
  const yamlLines = countNewlines(yaml);
  return {
    kind: "ok",
    yaml,
    yamlLine: 2,
    body: rest.slice(blank.length).trimEnd(),
    // line 1 is the opening fence; the YAML's lines follow; then the closing fence.
    bodyLine: 2 + yamlLines + 1 + countNewlines(blank),
  };
}

export function countNewlines(text: string, end = text.length): number {
  let n = 0;
  let i = text.indexOf("\n");
  while (i !== -1 && i < end) {
    n++;
    i = text.indexOf("\n", i + 1);
  }
  return n;
}
