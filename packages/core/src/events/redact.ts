/**
 * What of a user's words an event log keeps. Events are for stats and debugging (which
 * skill was offered, activated, blocked), which needs no verbatim text: by default a user
 * message is replaced by a sha256 prefix (equal messages stay recognisable) and its first
 * few characters (enough to tell turns apart when reading the log).
 */
import { createHash } from "node:crypto";
import type { SkillEvent } from "../types.js";

export type TextPolicy = "full" | "prefix" | "hash";

export interface RedactOptions {
  text: TextPolicy;
  prefixLength: number;
}

/** Hex characters of sha256 kept beside redacted text. */
const HASH_LENGTH = 16;

function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, HASH_LENGTH);
}

function shorten(text: string, options: RedactOptions): string {
  if (options.text === "hash") return "";
  const chars = Array.from(text);
  return chars.length <= options.prefixLength ? text : `${chars.slice(0, options.prefixLength).join("")}…`;
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
