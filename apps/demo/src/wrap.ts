/**
 * Wraps a transcript line to a width, so the story and the chat read well at 80 columns.
 * Continuation lines hang under the text column: after a step's label ("  activated    "),
 * a card's field ("  │ why      ", keeping the card's edge), or the line's own indent.
 * Widths are terminal columns: a CJK character takes two, so a Chinese request wraps where
 * the terminal would, not past the card's edge.
 */
import stringWidth from "string-width";

const ANSI = /\u001b\[[0-9;]*m/g;

const visible = (text: string) => stringWidth(text);

/** The longest start of `text` that fits in `width` columns (at least one character). */
function fitting(text: string, width: number): string {
  let taken = "";
  for (const ch of text) {
    if (taken !== "" && stringWidth(taken + ch) > width) break;
    taken += ch;
  }
  return taken;
}

/** The part of a line continuation lines align under, and what they start with instead. */
function hangOf(plain: string): string {
  const column = /^(\s*(?:[│┌└]─?\s)?\S+(?:\s\S+)?\s{2,})\S/.exec(plain)?.[1];
  const prefix = column && column.length <= 24 ? column : (/^\s*(?:[│]\s)?/.exec(plain)?.[0] ?? "");
  return [...prefix].map((ch) => (ch === "│" ? ch : " ")).join("");
}

export function wrapToWidth(line: string, width: number): string {
  if (visible(line) <= width) return line;
  const hang = hangOf(line.replace(ANSI, ""));
  const indent = /^\s*/.exec(line)?.[0] ?? "";
  const out: string[] = [];
  let current = indent;
  let empty = true; // nothing but the indent (or the hang) on the current line yet
  for (const word of line.slice(indent.length).split(" ")) {
    const joined = empty ? `${current}${word}` : `${current} ${word}`;
    if (empty || visible(joined) <= width) {
      current = joined;
    } else {
      out.push(current);
      current = `${hang}${word}`;
    }
    empty = false;
    // A word longer than a whole line (a path, a URL) is cut where it must be, if it is plain.
    // Chinese or Japanese text has no spaces: it is one such word, cut by columns.
    while (visible(current) > width && !current.includes("\u001b")) {
      const head = fitting(current, width);
      out.push(head);
      current = hang + current.slice(head.length);
    }
  }
  if (current.trim() !== "") out.push(current);
  return out.map((l) => l.trimEnd()).join("\n");
}
