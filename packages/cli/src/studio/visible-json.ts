/**
 * JSON for the studio's pages. Every string in a response comes from a skill file, a
 * model-written proposal or a message the user typed: each one has its control, bidi and
 * invisible characters made visible (`\u001b`) before it leaves the server, so the page can
 * never be told one thing and show another. The page itself renders text only (textContent).
 */
import { escapeTerminal } from "@skillshelf/core";

/** A copy of `value` with every string (keys too) made visible; other values unchanged. */
export function visibleStrings(value: unknown): unknown {
  if (typeof value === "string") return escapeTerminal(value);
  if (Array.isArray(value)) return value.map(visibleStrings);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[escapeTerminal(key)] = visibleStrings(inner);
    return out;
  }
  return value;
}

/** The response body: escaped strings, and `<` `>` `&` as JSON escapes so no byte reads as markup. */
export function visibleJson(value: unknown): string {
  return JSON.stringify(visibleStrings(value)).replace(
    /[<>&]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
