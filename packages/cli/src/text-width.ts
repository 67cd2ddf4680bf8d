/**
 * Columns measured as a terminal draws them: a CJK character or an emoji takes two columns,
 * a combining mark none, a colour code none. `padEnd` counts UTF-16 units, so a table with
 * a Chinese skill name or description would lose its alignment.
 */
import stringWidth from "string-width";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

/** The columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  // Most cells are plain ASCII: no need to segment them.
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** `text` followed by spaces up to `width` columns. */
export function padEndColumns(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Spaces, then `text`, up to `width` columns. */
export function padStartColumns(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - displayWidth(text))) + text;
}

/** The widest cell of a column (a loop: spreading 100,000 rows as arguments overflows the stack). */
export function columnWidth(cells: Iterable<string>, atLeast = 0): number {
  let width = atLeast;
  for (const cell of cells) {
    const w = displayWidth(cell);
    if (w > width) width = w;
  }
  return width;
}
