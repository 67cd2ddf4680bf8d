/**
 * Makes untrusted text (a skill file, a model-written proposal, a user message) safe to print
 * on a terminal. A terminal obeys control characters in what it prints: an escape sequence
 * can move the cursor, erase a line, recolour or hide text, set the window title or write to
 * the clipboard, and bidi overrides reorder what the reader sees. A reviewer must see exactly
 * the characters that will be written, so each such character is replaced by a visible
 * `\uXXXX` escape (also valid inside a JSON string, where it decodes back to the character).
 *
 * Kept as is: printable text, `\n` and `\t` (unless asked otherwise), and joiners (U+200C,
 * U+200D), which emoji sequences and several scripts need and which hide nothing by
 * themselves.
 */

export interface EscapeTerminalOptions {
  /** Keep `\n` as a line break (default true). False for one-line fields (a name in a table). */
  newlines?: boolean;
  /** Keep `\t` (default true). */
  tabs?: boolean;
}

/**
 * Characters a terminal may act on or that hide or reorder text:
 * C0 controls and DEL (ESC starts every escape sequence; CR and BS overwrite what was shown),
 * C1 controls (U+009B is a one-character CSI on some terminals), bidi marks, embeddings,
 * overrides and isolates (U+061C, U+200E–200F, U+202A–202E, U+2066–2069), invisible
 * characters (soft hyphen, U+180E, zero-width space, word joiner and invisible operators,
 * BOM, interlinear annotations), line and paragraph separators, and the tag characters
 * U+E0000–E007F, which render as nothing and are a known way to smuggle hidden text.
 */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

const UNSAFE_OR_NEWLINE = new RegExp(`${UNSAFE.source}|\\n`, "g");
const UNSAFE_OR_TAB = new RegExp(`${UNSAFE.source}|\\t`, "g");
const UNSAFE_OR_EITHER = new RegExp(`${UNSAFE.source}|[\\n\\t]`, "g");

function codeUnits(match: string): string {
  if (match === "\r") return "\\r";
  if (match === "\n") return "\\n";
  if (match === "\t") return "\\t";
  let escaped = "";
  for (let i = 0; i < match.length; i++) {
    escaped += `\\u${match.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return escaped;
}

function patternFor(options: EscapeTerminalOptions): RegExp {
  const newlines = options.newlines ?? true;
  const tabs = options.tabs ?? true;
  if (newlines && tabs) return UNSAFE;
  if (!newlines && !tabs) return UNSAFE_OR_EITHER;
  return newlines ? UNSAFE_OR_TAB : UNSAFE_OR_NEWLINE;
}

/** `text` with every terminal control, bidi control and invisible format character made visible. */
export function escapeTerminal(text: string, options: EscapeTerminalOptions = {}): string {
  const pattern = patternFor(options);
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, codeUnits);
}

/** Whether `text` holds anything `escapeTerminal` would change (for a warning beside the escaped text). */
export function hasTerminalControls(text: string, options: EscapeTerminalOptions = {}): boolean {
  const pattern = patternFor(options);
  pattern.lastIndex = 0;
  return pattern.test(text);
}
