/**
 * Skill bodies read from their file on first use instead of held from the load on.
 *
 * Bodies are most of a shelf's memory (the mirror's 8,224 served skills: ≈ 100 MB of strings
 * for ≈ 60 M characters), and a turn reads one or two of them. What stage 1 reads of every
 * body — its first characters — is kept as its own string; the rest is read again from the
 * file, and served only when the file still hashes to what was loaded (a file changed since
 * gives no body: its new version comes in with the next refresh, as a new skill).
 *
 * The starts are kept as UTF-8 bytes outside the JavaScript heap: as strings they were a
 * third of the heap after loading the mirror (one non-Latin-1 character anywhere in a file
 * makes V8 store its text, and every slice of it, at two bytes per character), and every
 * byte allocated on the heap during a load that survives it grows V8's young generation,
 * which V8 keeps at its grown size. The index reads each start once per build. What is kept
 * is what the index reads of the start (indexed-body-text.ts: no code, URLs, long runs or
 * repeated lines), so nothing it skips is kept.
 */
import type { Skill } from "../types.js";
import { BODY_HEAD_CHARS, bodyHead, indexedBodyText, indexedText } from "./indexed-body-text.js";

export { BODY_HEAD_CHARS };

/** What the index reads of each deferred body (see {@link indexedBody}), as UTF-8. */
const heads = new WeakMap<Skill, Buffer>();
/** Deferred bodies that mention `$ARGUMENTS` (see {@link bodyMentionsArguments}). */
const mentionsArguments = new WeakSet<Skill>();

/** Reads a deferred body from the skill's file (the loader that deferred it). */
export type BodyReader = (skill: Skill) => string;

/** Who reads each deferred body. */
const readers = new WeakMap<Skill, BodyReader>();

/**
 * The one getter every deferred body shares. V8 gives objects whose same property is a
 * different getter function different hidden classes, and soon makes them slow dictionaries
 * (≈ 900 bytes more each, and slower to read); one function for all keeps them fast.
 */
const BODY_PROPERTY: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: Skill): string {
    // `this` is the skill, or an object that inherits from it.
    let skill: Skill | null = this;
    while (skill !== null && !readers.has(skill)) skill = Object.getPrototypeOf(skill) as Skill | null;
    if (skill === null) return "";
    const body = readers.get(skill)!(skill);
    setBody(skill, body);
    return body;
  },
};

/**
 * Makes `skill.body` a getter that calls `read` once and keeps what it returns. `body` is the
 * whole body, or at least its first {@link BODY_HEAD_CHARS} + 1 characters when
 * `usesArguments` says whether the whole body mentions `$ARGUMENTS`; it is looked at now, and
 * only what the index reads of its start is kept. `head`: the start ({@link bodyHead}) as
 * UTF-8 already (parseSkillStart copies it from the file), kept as it is when the index reads
 * all of it; else the text read is encoded here.
 * To keep the object fast, call it where `body` belongs while adding the skill's properties
 * (turning a data property into a getter later makes the object a dictionary).
 */
export function deferBody(
  skill: Skill,
  body: string,
  read: BodyReader,
  usesArguments?: boolean,
  head?: Buffer,
): void {
  const start = bodyHead(body);
  const text = indexedText(start);
  heads.set(skill, head !== undefined && text === start ? head : encoded(text));
  if (usesArguments ?? body.includes("$ARGUMENTS")) mentionsArguments.add(skill);
  readers.set(skill, read);
  Object.defineProperty(skill, "body", BODY_PROPERTY);
}

/** Whether the skill's body has not been read yet. */
export function isBodyDeferred(skill: Skill): boolean {
  return heads.has(skill);
}

/** Replaces a deferred body with `body` (or sets a plain one), ending the deferral. */
export function setBody(skill: Skill, body: string): void {
  heads.delete(skill);
  readers.delete(skill);
  mentionsArguments.delete(skill);
  Object.defineProperty(skill, "body", { value: body, writable: true, enumerable: true, configurable: true });
}

/**
 * What the lexical index reads of the skill's body ({@link indexedBodyText}), without reading a
 * deferred body from its file.
 */
export function indexedBody(skill: Skill): string {
  const head = heads.get(skill);
  return head === undefined ? indexedBodyText(skill.body) : head.toString("utf8");
}

/** {@link indexedBody} of a deferred body as UTF-8, undecoded; undefined when the body is not deferred. */
export function indexedBodyUtf8(skill: Skill): Buffer | undefined {
  return heads.get(skill);
}

/**
 * `text` as UTF-8 in a buffer of its own, exactly as long: a start is kept for the skill's
 * life, and slices of Node's shared buffer pool left a sixth of the pooled space unused.
 */
function encoded(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, "utf8"));
  bytes.write(text, "utf8");
  return bytes;
}

/**
 * Whether the body uses `$ARGUMENTS` (the skill takes free-text arguments), without reading a
 * deferred body: a skill's tool is offered many times before it is activated once.
 */
export function bodyMentionsArguments(skill: Skill): boolean {
  return heads.has(skill) ? mentionsArguments.has(skill) : skill.body.includes("$ARGUMENTS");
}
