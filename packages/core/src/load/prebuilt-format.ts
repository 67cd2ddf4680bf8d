/**
 * The prebuilt shelf's file format (`skillshelf build`): one file holding each skill file's
 * parse (the skill as data, its diagnostics), the size and mtime it had, and the stage-1
 * index's terms for it.
 *
 * Layout: the 8 bytes `SKSHELF1`, the JSON document's length in bytes (uint32, little-endian),
 * the JSON document, zero padding to a multiple of 4, then every skill's index terms as
 * little-endian int32s (each file names its run). The terms were most of the size; as bytes
 * they cost no parsing or decoding at start-up.
 *
 * Skills are stored generically — the parsed object as JSON — so a field the parser learns
 * (parameters, steps, …) survives the round trip without this file knowing it. The fields
 * the rest of core reads are checked for their type on the way in: the file is input, and a
 * wrong type there must give a located error, not a crash three modules later.
 */
import { isAscii } from "node:buffer";
import fs from "node:fs";
import { MAX_YAML_DEPTH } from "../parse/limits.js";
import type { Diagnostic, ParseMode } from "../types.js";
import type { StoredLayout } from "./prebuilt-layout.js";

export const PREBUILT_FORMAT = "skillshelf-prebuilt-shelf";
/** Bumped whenever the layout or the meaning of a stored field changes. */
export const PREBUILT_VERSION = 5;

export interface StoredSource {
  /** Relative to the shelf's root (`/`-separated) when inside it, else absolute. */
  dir: string;
  scope: "project" | "user";
}

export interface StoredFile {
  /** The skill file, stored like a source's `dir`. */
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * The parsed skill without the loader's own fields (scope, file, dir, locked), and without
   * its body, which is read from the file when first needed; absent when it did not load.
   * For a file that lost, only what its stub does not take from the defaults:
   * {@link StoredLostStub}.
   */
  skill?: Record<string, unknown>;
  diagnostics: Diagnostic[];
  /** It lost to another file of the same name: `skill` is a {@link StoredLostStub}. */
  lost?: true;
  /**
   * The skill's folder held a `schema.json` at the build. Absent: it held none, and a start
   * takes that as the baseline of the folder's change check instead of a `stat` per skill.
   */
  schema?: true;
  /** The index's terms for the skill: [start, length] in the file's int32 section, ids into `index.terms`. */
  terms?: [number, number];
  /**
   * How the parts of the skill's name, triggers and exclusions read as phrases (their words
   * stemmed, joined by one space), as pairs `[text, form, …]`: the same analysis as the
   * terms, so used only where they are.
   */
  phrases?: string[];
}

/**
 * What is stored of a file that lost: the stub resolution needs is these and the defaults of
 * every other field, so writing the defaults out (a third of the mirror's document, where
 * 7,068 of 15,724 files lose) only cost parsing and checking them at every start.
 */
export interface StoredLostStub {
  name: string;
  hash: string;
  bodyLine: number;
  /** A role that lost to another role: it still is one, to resolution (a duplicate, not an ordinary skill shadowed). */
  role?: true;
}

export interface StoredIndex {
  /** `termTuningKey` of the tuning the terms were read with. */
  tuning: string;
  /** The terms a fixed text reads into: another analysis (a new stemmer) gives others, and the terms are not used. */
  probe: string[];
  terms: string[];
  /**
   * Everyday informativeness of the terms the everyday lists know, as pairs `[term, weight, …]`
   * (a term's position in `terms`, a weight in [0, 1); every other term weighs 1): a start then
   * sets the shelf's familiarity reference without stemming the lists. It only steers abstention.
   */
  everyday?: number[];
  /**
   * The index laid out for the list of skills a default shelf offers (prebuilt-layout.ts),
   * used only for exactly that list.
   */
  layout?: StoredLayout;
}

export interface StoredShelf {
  format: typeof PREBUILT_FORMAT;
  version: number;
  /** The @skillshelf/core version that built it: the parser's verdicts belong to it. */
  core: string;
  mode: ParseMode;
  builtAt: string;
  sources: StoredSource[];
  files: StoredFile[];
  index?: StoredIndex;
}

/** A problem with the document, and where in it (`files[3].skill.triggers`). */
export class PrebuiltFormatError extends Error {
  constructor(
    readonly at: string,
    message: string,
  ) {
    super(`${at}: ${message}`);
  }
}

const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

// Indexed loops, not for…of: the check runs once per skill of a cold start, in code the engine
// has not optimised yet, where an iterator per array was a visible part of it.
function isStringList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== "string") return false;
  return true;
}

function isStringMap(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) if (typeof v[key] !== "string") return false;
  return true;
}

/**
 * The skill fields core reads, and their types (optional ones may be absent). Others are
 * carried as they are; a skill taken from the prebuilt is still checked against its file
 * before it is activated. Written out as one function, not a table of checks: it runs for
 * every skill of a cold start, before the engine has optimised anything.
 */
function badSkillField(skill: Record<string, unknown>): string | undefined {
  const s = skill;
  if (typeof s.name !== "string") return "name";
  if (typeof s.description !== "string") return "description";
  if (s.body !== undefined && typeof s.body !== "string") return "body";
  if (typeof s.hash !== "string" || !HASH.test(s.hash)) return "hash";
  if (!isNumber(s.bodyLine)) return "bodyLine";
  if (!isStringList(s.triggers)) return "triggers";
  if (!isStringList(s.exclusions)) return "exclusions";
  if (!isStringList(s.examples)) return "examples";
  if (s.allowedTools !== undefined && !isStringList(s.allowedTools)) return "allowedTools";
  if (!isStringList(s.disallowedTools)) return "disallowedTools";
  if (typeof s.disableModelInvocation !== "boolean") return "disableModelInvocation";
  if (typeof s.userInvocable !== "boolean") return "userInvocable";
  if (!isStringList(s.arguments)) return "arguments";
  if (typeof s.role !== "boolean") return "role";
  if (!isNumber(s.priority)) return "priority";
  if (!isObject(s.extra)) return "extra";
  const optional = badOptionalString(s);
  if (optional !== undefined) return optional;
  if (s.metadata !== undefined && !isStringMap(s.metadata)) return "metadata";
  if (s.context !== undefined && s.context !== "fork") return "context";
  if (s.paths !== undefined && !isStringList(s.paths)) return "paths";
  if (s.hooks !== undefined && !isObject(s.hooks)) return "hooks";
  return undefined;
}

const HASH = /^[0-9a-f]{64}$/u;

/** What canonicalForm gives: words (no space in them) joined by one space, or nothing; never longer than a trigger may be. */
const PHRASE_FORM = /^(?:[^\s]+(?: [^\s]+)*)?$/u;
const MAX_PHRASE_FORM = 1024;

function arePhrasePairs(value: unknown): boolean {
  if (!Array.isArray(value) || value.length % 2 !== 0) return false;
  for (let i = 0; i < value.length; i += 2) {
    const text: unknown = value[i];
    const form: unknown = value[i + 1];
    if (typeof text !== "string" || text.length > MAX_PHRASE_FORM) return false;
    if (typeof form !== "string" || form.length > MAX_PHRASE_FORM || !PHRASE_FORM.test(form)) return false;
  }
  return true;
}

/**
 * How deep a stored value may nest: what the parser itself lets through (a frontmatter is
 * refused past MAX_YAML_DEPTH levels) and a little more. JSON.parse takes any depth, and a
 * deeper value would overflow the stack of whatever walks it later (a comparison, a copy).
 */
const MAX_STORED_DEPTH = MAX_YAML_DEPTH + 4;

function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestedDeeperThan(value[i], limit - 1)) return true;
    return false;
  }
  for (const key in value)
    if (nestedDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}
/** Where a lost file's stub is not `{ name, hash, bodyLine[, role: true] }` (the defaults are the loader's, never the file's). */
function badLostStub(stub: Record<string, unknown>): string | undefined {
  if (typeof stub.name !== "string") return ".name";
  if (typeof stub.hash !== "string" || !HASH.test(stub.hash)) return ".hash";
  if (!isNumber(stub.bodyLine)) return ".bodyLine";
  if (stub.role !== undefined && stub.role !== true) return ".role";
  let keys = 0;
  for (const _ in stub) keys++;
  return keys === (stub.role === true ? 4 : 3) ? undefined : "";
}

/** The optional string fields, each read by name (a loop over their names was keyed loads). */
function badOptionalString(s: Record<string, unknown>): string | undefined {
  if (s.license !== undefined && typeof s.license !== "string") return "license";
  if (s.compatibility !== undefined && typeof s.compatibility !== "string") return "compatibility";
  if (s.whenToUse !== undefined && typeof s.whenToUse !== "string") return "whenToUse";
  if (s.argumentHint !== undefined && typeof s.argumentHint !== "string") return "argumentHint";
  if (s.version !== undefined && typeof s.version !== "string") return "version";
  if (s.model !== undefined && typeof s.model !== "string") return "model";
  if (s.agent !== undefined && typeof s.agent !== "string") return "agent";
  if (s.effort !== undefined && typeof s.effort !== "string") return "effort";
  if (s.group !== undefined && typeof s.group !== "string") return "group";
  return undefined;
}

/** Fields the loader sets itself: a stored skill must not bring its own. */
const LOADER_FIELDS = ["scope", "file", "dir", "locked"];

const MAGIC = Buffer.from("SKSHELF1", "latin1");
const HEADER_BYTES = MAGIC.length + 4;

/**
 * The file's bytes: the document and the int32 section after it. The document is written in
 * ASCII (every other character as a `\u` escape), so reading it is a copy of bytes, not a
 * UTF-8 decode into a two-byte string twice its size.
 */
export function encodePrebuiltFile(shelf: StoredShelf, ints: Int32Array): Buffer {
  return encodeRawPrebuiltFile(asciiJson(JSON.stringify(shelf)), ints);
}

/** `json` with every character past ASCII written as a `\u` escape (each UTF-16 unit: JSON's own form). */
function asciiJson(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The same from the document's text as it is (tests write broken ones). */
export function encodeRawPrebuiltFile(json: string, ints: Int32Array = new Int32Array(0)): Buffer {
  const text = Buffer.from(json, "utf8");
  const padded = HEADER_BYTES + text.length + ((4 - ((HEADER_BYTES + text.length) % 4)) % 4);
  const out = Buffer.alloc(padded + ints.byteLength);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(text.length, MAGIC.length);
  text.copy(out, HEADER_BYTES);
  Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength).copy(out, padded);
  return out;
}

export interface PrebuiltFileParts {
  json: string;
  ints: Int32Array;
}

/** Splits a file into its document's text and its int32 section; throws a {@link PrebuiltFormatError}. */
export function decodePrebuiltFile(bytes: Buffer): PrebuiltFileParts {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    fail("(header)", "not a prebuilt shelf (it does not start with SKSHELF1)");
  const length = bytes.readUInt32LE(MAGIC.length);
  if (HEADER_BYTES + length > bytes.length) fail("(header)", "the document is cut short");
  const padded = HEADER_BYTES + length + ((4 - ((HEADER_BYTES + length) % 4)) % 4);
  if ((bytes.length - padded) % 4 !== 0 || padded > bytes.length) fail("(terms)", "not whole int32s");
  const document = bytes.subarray(HEADER_BYTES, HEADER_BYTES + length);
  // What `skillshelf build` writes is ASCII; a document written otherwise is still UTF-8.
  const json = isAscii(document) ? document.toString("latin1") : document.toString("utf8");
  const count = (bytes.length - padded) / 4;
  // A view when the bytes are aligned (a file read whole is), else one copy.
  const at = bytes.byteOffset + padded;
  const ints =
    at % 4 === 0
      ? new Int32Array(bytes.buffer, at, count)
      : new Int32Array(new Uint8Array(bytes.subarray(padded)).buffer);
  return { json, ints };
}

/**
 * Reads a prebuilt shelf file into its document's text and its int32 section, the section
 * straight into memory of its own: the index keeps it for the process's life, and a view
 * into the whole file's bytes would keep the document's bytes alive with it (or cost a copy
 * of the section). Throws a {@link PrebuiltFormatError}, or the file system's error.
 */
export function readPrebuiltFile(file: string, maxBytes: number): PrebuiltFileParts {
  // Non-blocking: a FIFO put where the file goes would otherwise hold the start forever.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) fail("(file)", "not a regular file");
    const size = stat.size;
    if (size > maxBytes) throw new PrebuiltTooLargeError(size, maxBytes);
    const header = Buffer.alloc(HEADER_BYTES);
    if (
      size < HEADER_BYTES ||
      readFully(fd, header, 0) < HEADER_BYTES ||
      !header.subarray(0, MAGIC.length).equals(MAGIC)
    )
      fail("(header)", "not a prebuilt shelf (it does not start with SKSHELF1)");
    const length = header.readUInt32LE(MAGIC.length);
    if (HEADER_BYTES + length > size) fail("(header)", "the document is cut short");
    const padded = HEADER_BYTES + length + ((4 - ((HEADER_BYTES + length) % 4)) % 4);
    if ((size - padded) % 4 !== 0 || padded > size) fail("(terms)", "not whole int32s");
    const document = Buffer.allocUnsafe(length);
    if (readFully(fd, document, HEADER_BYTES) < length) fail("(header)", "the document is cut short");
    const ints = new Int32Array((size - padded) / 4);
    const section = Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength);
    if (readFully(fd, section, padded) < section.length) fail("(terms)", "cut short");
    // What `skillshelf build` writes is ASCII; a document written otherwise is still UTF-8.
    const json = isAscii(document) ? document.toString("latin1") : document.toString("utf8");
    return { json, ints };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads `into.length` bytes from `position` on, or as many as the file still has. */
function readFully(fd: number, into: Buffer, position: number): number {
  let read = 0;
  while (read < into.length) {
    const n = fs.readSync(fd, into, read, into.length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read;
}

/** The file is over the size a prebuilt shelf may have: not read at all. */
export class PrebuiltTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`it is ${size} bytes, over the ${limit}-byte limit`);
  }
}

/** Checks a parsed document's shape; throws a {@link PrebuiltFormatError} naming the first bad place. */
export function checkStoredShelf(value: unknown): StoredShelf {
  if (!isObject(value)) fail("(top)", "not a JSON object");
  if (value.format !== PREBUILT_FORMAT) fail("format", `not "${PREBUILT_FORMAT}"`);
  if (value.version !== PREBUILT_VERSION)
    fail("version", `${JSON.stringify(value.version)}, this version of skillshelf reads ${PREBUILT_VERSION}`);
  if (!isString(value.core)) fail("core", "not a string");
  if (value.mode !== "lenient" && value.mode !== "strict") fail("mode", "not lenient or strict");
  if (!isString(value.builtAt)) fail("builtAt", "not a string");
  if (!Array.isArray(value.sources)) fail("sources", "not a list");
  value.sources.forEach((source, i) => {
    if (!isObject(source) || !isString(source.dir) || (source.scope !== "project" && source.scope !== "user"))
      fail(`sources[${i}]`, "not { dir, scope }");
  });
  if (!Array.isArray(value.files)) fail("files", "not a list");
  const files: unknown[] = value.files;
  for (let i = 0; i < files.length; i++) checkFile(files[i], i);
  if (value.index !== undefined) {
    const index = value.index;
    if (!isObject(index)) fail("index", "not an object");
    if (!isString(index.tuning)) fail("index.tuning", "not a string");
    if (!isStringList(index.probe)) fail("index.probe", "not a list of strings");
    if (!isStringList(index.terms)) fail("index.terms", "not a list of strings");
    if (index.everyday !== undefined && !isWeightPairs(index.everyday, (index.terms as string[]).length))
      fail("index.everyday", "not pairs of a term and a weight");
    if (index.layout !== undefined) checkLayoutShape(index.layout, files);
  }
  return value as unknown as StoredShelf;
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The layout's document part (its arrays are checked against the list when the file is opened). */
function checkLayoutShape(layout: unknown, files: readonly unknown[]): void {
  if (!isObject(layout)) fail("index.layout", "not an object");
  for (const key of ["at", "postings", "exampleCount", "exampleIds"] as const)
    if (!isCount(layout[key])) fail(`index.layout.${key}`, "not a count");
  if (!Array.isArray(layout.builtins)) fail("index.layout.builtins", "not a list");
  const builtins: unknown[] = layout.builtins;
  for (let j = 0; j < builtins.length; j++) {
    const b = builtins[j];
    if (!isObject(b) || !isString(b.name) || !isString(b.hash) || !HASH.test(b.hash) || !isCount(b.examples))
      fail(`index.layout.builtins[${j}]`, "not { name, hash, examples }");
  }
  if (!Array.isArray(layout.skills)) fail("index.layout.skills", "not a list");
  const skills: unknown[] = layout.skills;
  for (let i = 0; i < skills.length; i++) {
    const k = skills[i];
    if (!Number.isSafeInteger(k)) fail(`index.layout.skills[${i}]`, "not a position");
    const position = k as number;
    const file = position >= 0 ? (files[position] as StoredFile | undefined) : undefined;
    if (position >= 0 ? !file?.skill || file.lost === true : -1 - position >= builtins.length)
      fail(`index.layout.skills[${i}]`, "names no stored skill");
  }
  if (layout.references !== undefined) {
    const r = layout.references;
    if (!isObject(r) || typeof r.everydayWords !== "boolean" || !isShare(r.examples) || !isShare(r.skills))
      fail("index.layout.references", "not { everydayWords, examples, skills } with shares in [0, 1]");
  }
}

const isShare = (v: unknown): boolean => typeof v === "number" && v >= 0 && v <= 1;

/** `[term, weight, …]`: each term a position below `termCount`, each weight in [0, 1]. */
function isWeightPairs(value: unknown, termCount: number): boolean {
  if (!Array.isArray(value) || value.length % 2 !== 0) return false;
  for (let i = 0; i < value.length; i += 2) {
    const term: unknown = value[i];
    const weight: unknown = value[i + 1];
    if (!Number.isSafeInteger(term) || (term as number) < 0 || (term as number) >= termCount) return false;
    if (typeof weight !== "number" || !(weight >= 0 && weight <= 1)) return false;
  }
  return true;
}

function checkFile(file: unknown, index: number): void {
  // Only a failure needs the place as text.
  const at = `files[${index}]`;
  if (!isObject(file)) fail(at, "not an object");
  if (!isString(file.path) || file.path === "") fail(`${at}.path`, "not a path");
  if (!isNumber(file.size)) fail(`${at}.size`, "not a number");
  if (!isNumber(file.mtimeMs)) fail(`${at}.mtimeMs`, "not a number");
  if (file.lost !== undefined && file.lost !== true) fail(`${at}.lost`, "not true");
  if (file.schema !== undefined && file.schema !== true) fail(`${at}.schema`, "not true");
  if (
    file.terms !== undefined &&
    !(
      Array.isArray(file.terms) &&
      file.terms.length === 2 &&
      Number.isSafeInteger(file.terms[0]) &&
      Number.isSafeInteger(file.terms[1]) &&
      file.terms[0] >= 0 &&
      file.terms[1] >= 0
    )
  )
    fail(`${at}.terms`, "not [start, length]");
  if (file.phrases !== undefined && !arePhrasePairs(file.phrases))
    fail(`${at}.phrases`, "not pairs of a text and its phrase form (words joined by single spaces)");
  if (!Array.isArray(file.diagnostics)) fail(`${at}.diagnostics`, "not a list");
  for (let i = 0; i < file.diagnostics.length; i++) {
    const d: unknown = file.diagnostics[i];
    if (
      !isObject(d) ||
      (d.severity !== "error" && d.severity !== "warning" && d.severity !== "info") ||
      !isString(d.code) ||
      !isString(d.message) ||
      !isString(d.file) ||
      !isNumber(d.line) ||
      !isString(d.hint) ||
      (d.column !== undefined && !isNumber(d.column))
    )
      fail(`${at}.diagnostics[${i}]`, "not a diagnostic");
  }
  if (file.skill === undefined) return;
  const skill = file.skill;
  if (!isObject(skill)) fail(`${at}.skill`, "not an object");
  if (file.lost === true) {
    const bad = badLostStub(skill);
    if (bad !== undefined)
      fail(`${at}.skill${bad}`, "not a stub of a file that lost ({ name, hash, bodyLine })");
    return;
  }
  const bad = badSkillField(skill);
  if (bad !== undefined) fail(`${at}.skill.${bad}`, "missing or of the wrong type");
  for (const key in skill) {
    const value = skill[key];
    if (typeof value === "object" && value !== null && nestedDeeperThan(value, MAX_STORED_DEPTH))
      fail(`${at}.skill.${key}`, `nested deeper than ${MAX_STORED_DEPTH} levels`);
  }
  if ("scope" in skill || "file" in skill || "dir" in skill || "locked" in skill) {
    for (const key of LOADER_FIELDS)
      if (key in skill) fail(`${at}.skill.${key}`, "set by the loader, not stored");
  }
}

function fail(at: string, message: string): never {
  throw new PrebuiltFormatError(at, message);
}
