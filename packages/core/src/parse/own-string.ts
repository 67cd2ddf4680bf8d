/**
 * Strings that keep nothing else alive. V8 makes a slice of a long string (`slice`, a regex
 * match, a YAML scalar) a view that holds the whole original, and a template literal a tree
 * that holds its parts: one such string kept from a parse keeps the file's whole text.
 */
import { Buffer } from "node:buffer";

/**
 * A flat copy of `text` that is not a view of a longer string (short strings are copies
 * already). Through UTF-8 and back the copy is a string of its own, as long as `text`: a
 * load keeps ≈ 50,000 of these (paths, names, descriptions), and the older way — V8 flattens
 * `" " + text` into a new string, then slices it — kept a 40-byte view in front of each
 * copy (≈ 2 MiB of the mirror's load), at about the same cost. Text with a lone surrogate
 * would not survive UTF-8, so it takes the older way.
 */
export function ownString(text: string): string {
  if (text.length < 13) return text;
  return isWellFormed(text) ? Buffer.from(text, "utf8").toString("utf8") : ` ${text}`.slice(1);
}

/** `String.prototype.isWellFormed` (ES2024, every supported Node), typed for the ES2023 lib. */
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** `text`, or its flat copy when it may hold parts of something longer. */
export function ownOptional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : ownString(text);
}
