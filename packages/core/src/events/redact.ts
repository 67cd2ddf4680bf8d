/**
 * What of a user's words an event log keeps. Events are for stats and debugging (which
 * skill was offered, activated, blocked), which needs no verbatim text: by default a user
 * message is replaced by a sha256 prefix (equal messages stay recognisable) and its first
 * few characters (enough to tell turns apart when reading the log).
 */
import * as crypto from "node:crypto";
import type { SkillEvent } from "../types.js";

export type TextPolicy = "full" | "prefix" | "hash";

export interface RedactOptions {
  text: TextPolicy;
  prefixLength: number;
}

/** Hex characters of sha256 kept beside redacted text. */
const HASH_LENGTH = 16;

// The one-shot digest skips building a Hash object, most of a short message's hashing cost;
// it is missing before Node 20.12, read off the namespace so an older Node still loads this file.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

function textHash(text: string): string {
  const hex = oneShotHash
    ? oneShotHash("sha256", text, "hex")
    : crypto.createHash("sha256").update(text).digest("hex");
  return hex.slice(0, HASH_LENGTH);
}

/** The first `prefixLength` code points (never half a surrogate pair), with "…" when cut. */
function shorten(text: string, options: RedactOptions): string {
  if (options.text === "hash") return "";
  // At most that many UTF-16 units is at most that many code points: nothing to cut.
  if (text.length <= options.prefixLength) return text;
  let kept = 0;
  let end = 0;
  for (const char of text) {
    if (kept === options.prefixLength) return `${text.slice(0, end)}…`;
    kept++;
    end += char.length;
  }
  return text;
}

/** The event as the log stores it: user text shortened per `options`, with its hash beside it. */
export function redactEvent(event: SkillEvent, options: RedactOptions): SkillEvent {
  if (options.text === "full") return event;
  switch (event.type) {
    case "candidates":
      return { ...event, message: shorten(event.message, options), messageSha256: textHash(event.message) };
    case "activated":
      return event.args === undefined
        ? event
        : { ...event, args: shorten(event.args, options), argsSha256: textHash(event.args) };
    case "delegated":
      return { ...event, task: shorten(event.task, options), taskSha256: textHash(event.task) };
    default:
      return event;
  }
}
