/**
 * The prebuilt shelf's file format (`skillshelf build`): one JSON document holding each skill
 * file's parse (the skill as data, its diagnostics), the size and mtime it had, and the
 * stage-1 index's terms for it.
 *
 * Skills are stored generically — the parsed object as JSON — so a field the parser learns
 * (parameters, steps, …) survives the round trip without this file knowing it. The fields
 * the rest of core reads are checked for their type on the way in: the file is input, and a
 * wrong type there must give a located error, not a crash three modules later.
 */
import type { Diagnostic, ParseMode, Severity } from "../types.js";

export const PREBUILT_FORMAT = "skillshelf-prebuilt-shelf";
/** Bumped whenever the layout or the meaning of a stored field changes. */
export const PREBUILT_VERSION = 1;

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
   */
  skill?: Record<string, unknown>;
  diagnostics: Diagnostic[];
  /** It lost to another file of the same name: `skill` is a stub. */
  lost?: true;
  /** The index's terms for the skill (base64 of little-endian int32s, ids into `index.terms`). */
  terms?: string;
}

export interface StoredIndex {
  /** `termTuningKey` of the tuning the terms were read with. */
  tuning: string;
  /** The terms a fixed text reads into: another analysis (a new stemmer) gives others, and the terms are not used. */
  probe: string[];
  terms: string[];
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

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === "string";
const isBoolean: Check = (v) => typeof v === "boolean";
const isNumber: Check = (v) => typeof v === "number" && Number.isFinite(v);
const isStringList: Check = (v) => Array.isArray(v) && v.every(isString);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isStringMap: Check = (v) => isObject(v) && Object.values(v).every(isString);
const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/**
 * The skill fields core reads, and their types (optional ones may be absent). Others are
 * carried as they are; a skill taken from the prebuilt is still checked against its file
 * before it is activated.
 */
const SKILL_FIELDS: Readonly<Record<string, { check: Check; optional?: true }>> = {
  name: { check: isString },
  description: { check: isString },
  body: { check: isString, optional: true },
  hash: { check: (v) => typeof v === "string" && /^[0-9a-f]{64}$/u.test(v) },
  bodyLine: { check: isNumber },
  triggers: { check: isStringList },
  exclusions: { check: isStringList },
  examples: { check: isStringList },
  allowedTools: { check: isStringList, optional: true },
  disallowedTools: { check: isStringList },
  disableModelInvocation: { check: isBoolean },
  userInvocable: { check: isBoolean },
  arguments: { check: isStringList },
  role: { check: isBoolean },
  priority: { check: isNumber },
  extra: { check: isObject },
  license: { check: isString, optional: true },
  compatibility: { check: isString, optional: true },
  metadata: { check: isStringMap, optional: true },
  whenToUse: { check: isString, optional: true },
  argumentHint: { check: isString, optional: true },
  version: { check: isString, optional: true },
  model: { check: isString, optional: true },
  context: { check: (v) => v === "fork", optional: true },
  agent: { check: isString, optional: true },
  paths: { check: isStringList, optional: true },
  hooks: { check: isObject, optional: true },
  effort: { check: isString, optional: true },
  group: { check: isString, optional: true },
};

/** Fields the loader sets itself: a stored skill must not bring its own. */
const LOADER_FIELDS = ["scope", "file", "dir", "locked"];

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
  for (const [i, file] of value.files.entries()) checkFile(file, `files[${i}]`);
  if (value.index !== undefined) {
    const index = value.index;
    if (!isObject(index)) fail("index", "not an object");
    if (!isString(index.tuning)) fail("index.tuning", "not a string");
    if (!isStringList(index.probe)) fail("index.probe", "not a list of strings");
    if (!isStringList(index.terms)) fail("index.terms", "not a list of strings");
  }
  return value as unknown as StoredShelf;
}

function checkFile(file: unknown, at: string): void {
  if (!isObject(file)) fail(at, "not an object");
  if (!isString(file.path) || file.path === "") fail(`${at}.path`, "not a path");
  if (!isNumber(file.size)) fail(`${at}.size`, "not a number");
  if (!isNumber(file.mtimeMs)) fail(`${at}.mtimeMs`, "not a number");
  if (file.lost !== undefined && file.lost !== true) fail(`${at}.lost`, "not true");
  if (file.terms !== undefined && !isString(file.terms)) fail(`${at}.terms`, "not a string");
  if (!Array.isArray(file.diagnostics)) fail(`${at}.diagnostics`, "not a list");
  file.diagnostics.forEach((d, i) => {
    const where = `${at}.diagnostics[${i}]`;
    if (
      !isObject(d) ||
      !SEVERITIES.includes(d.severity as Severity) ||
      !isString(d.code) ||
      !isString(d.message) ||
      !isString(d.file) ||
      !isNumber(d.line) ||
      !isString(d.hint) ||
      (d.column !== undefined && !isNumber(d.column))
    )
      fail(where, "not a diagnostic");
  });
  if (file.skill === undefined) return;
  const skill = file.skill;
  if (!isObject(skill)) fail(`${at}.skill`, "not an object");
  for (const [key, { check, optional }] of Object.entries(SKILL_FIELDS)) {
    const field = skill[key];
    if (field === undefined ? !optional : !check(field))
      fail(`${at}.skill.${key}`, "missing or of the wrong type");
  }
  for (const key of LOADER_FIELDS)
    if (key in skill) fail(`${at}.skill.${key}`, "set by the loader, not stored");
}

function fail(at: string, message: string): never {
  throw new PrebuiltFormatError(at, message);
}
