/**
 * Skill bodies read from their file on first use instead of held from the load on.
 *
 * Bodies are most of a shelf's memory (the mirror's 8,224 served skills: ≈ 100 MB of strings
 * for ≈ 60 M characters), and a turn reads one or two of them. What stage 1 reads of every
 * body — its first characters — is kept as its own string; the rest is read again from the
 * file, and served only when the file still hashes to what was loaded (a file changed since
 * gives no body: its new version comes in with the next refresh, as a new skill).
 */
import type { Skill } from "../types.js";

/** The start of each deferred body, as long as the index reads (see {@link bodyStart}). */
const heads = new WeakMap<Skill, string>();
/** Deferred bodies that mention `$ARGUMENTS` (see {@link bodyMentionsArguments}). */
const mentionsArguments = new WeakSet<Skill>();

/**
 * Makes `skill.body` a getter that calls `read` once and keeps what it returns. `head` is the
 * body's first characters (a string of its own, not a slice of the file's text); `body` the
 * whole body, looked at now and not kept.
 */
export function deferBody(skill: Skill, head: string, body: string, read: () => string): void {
  heads.set(skill, head);
  if (body.includes("$ARGUMENTS")) mentionsArguments.add(skill);
  Object.defineProperty(skill, "body", {
    configurable: true,
    enumerable: true,
    get: () => {
      const body = read();
      setBody(skill, body);
      return body;
    },
  });
}

/** Whether the skill's body has not been read yet. */
export function isBodyDeferred(skill: Skill): boolean {
  return heads.has(skill);
}

/** Replaces a deferred body with `body` (or sets a plain one), ending the deferral. */
export function setBody(skill: Skill, body: string): void {
  heads.delete(skill);
  mentionsArguments.delete(skill);
  Object.defineProperty(skill, "body", { value: body, writable: true, enumerable: true, configurable: true });
}

/**
 * The first `chars` characters of the skill's body without reading a deferred body from its
 * file, as long as `chars` is within what was kept of it.
 */
export function bodyStart(skill: Skill, chars: number): string {
  const head = heads.get(skill);
  return head !== undefined && chars <= BODY_HEAD_CHARS ? head.slice(0, chars) : skill.body.slice(0, chars);
}

/**
 * Whether the body uses `$ARGUMENTS` (the skill takes free-text arguments), without reading a
 * deferred body: a skill's tool is offered many times before it is activated once.
 */
export function bodyMentionsArguments(skill: Skill): boolean {
  return heads.has(skill) ? mentionsArguments.has(skill) : skill.body.includes("$ARGUMENTS");
}

/** How much of a deferred body is kept: what the lexical index reads of every body. */
export const BODY_HEAD_CHARS = 3_000;
