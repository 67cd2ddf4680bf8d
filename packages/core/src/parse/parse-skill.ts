/**
 * parseSkill: SKILL.md text or bytes → a normalised skill plus located diagnostics.
 *
 * Never throws and never hangs on bad input: every failure becomes a diagnostic, and the
 * skill is returned exactly when no diagnostic is an error. The happy path builds one YAML
 * document and walks its top-level pairs once; line numbers are only computed when a
 * diagnostic needs one.
 */
import { Buffer, isUtf8 } from "node:buffer";
import crypto from "node:crypto";
import { basename, dirname } from "node:path";
import type { ParseOptions, ParseResult, SkillMeta } from "../types.js";
import { readFastFrontmatter } from "./fast-frontmatter.js";
import { countNewlines, splitFrontmatter } from "./frontmatter.js";
import { BODY_MAX_LINES, MAX_FRONTMATTER_LENGTH } from "./limits.js";
import { readLineFrontmatter } from "./line-frontmatter.js";
import { normalizeMeta } from "./normalize-meta.js";
import { Locator, Report } from "./report.js";
import { exceedsYamlDepth } from "./yaml-depth.js";
import { readFrontmatter } from "./yaml-frontmatter.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * sha256 as hex. The one-shot `crypto.hash` (Node ≥ 20.12) skips building a Hash object per
 * file: ≈ 3 ms less per 1,000 files in a fresh process. A string is hashed as its UTF-8.
 */
const sha256Hex: (data: string | Uint8Array) => string =
  typeof crypto.hash === "function"
    ? (data) => crypto.hash("sha256", data, "hex")
    : (data) => crypto.createHash("sha256").update(data).digest("hex");
const BYTE_ORDER_MARK = 0xfeff;

/**
 * Parses one SKILL.md. `options.path` is reported in diagnostics and names the folder the
 * `name` is checked against (override with `folderName`, or `false` to skip that check).
 */
export function parseSkill(input: string | Uint8Array, options: ParseOptions = {}): ParseResult {
  return parseSkillWith(input, options, true);
}

/**
 * parseSkill with the fast YAML path on or off. Off, every frontmatter goes through the
 * full `yaml` Document: for tests that check both paths give the same result.
 */
export function parseSkillWith(
  input: string | Uint8Array,
  options: ParseOptions,
  fastPath: boolean,
  keepHash?: KeepHash,
): ParseResult {
  const report = new Report(options.path ?? "SKILL.md", options.mode ?? "lenient");
  try {
    return parseInto(report, input, options, fastPath, keepHash);
  } catch (error) {
    // Defence in depth: a bug here must cost one skill, never the host.
    report.error("read-error", `the file could not be parsed: ${(error as Error)?.message ?? String(error)}`);
    return report.result();
  }
}

function parseInto(
  report: Report,
  input: string | Uint8Array,
  options: ParseOptions,
  fastPath: boolean,
  keepHash: KeepHash | undefined,
): ParseResult {
  let text: string;
  // Whether the text may hold a carriage return or a NUL: from the bytes when there are
  // bytes (a byte search is many times faster than a search of the decoded string, and in
  // UTF-8 these bytes occur only as these characters).
  let mayHaveReturn = true;
  let mayHaveNul = true;
  if (typeof input === "string") {
    text = input;
  } else {
    const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    mayHaveReturn = bytes.indexOf(13) !== -1;
    mayHaveNul = bytes.indexOf(0) !== -1;
    try {
      text = UTF8.decode(input);
    } catch {
      return binary(report, "it is not valid UTF-8 text");
    }
  }
  // Hash what was given (bytes as they are on disk), before any normalisation.
  return parseText(report, text, input, keepHash, mayHaveReturn, mayHaveNul, options, fastPath);
}

/**
 * Whether the caller wants the skill's hash, asked once its name is known: a loader gives a
 * file that already loses to another of the same name no hash (""), and never serves it
 * without reading it again.
 */
export type KeepHash = (name: string, role: boolean) => boolean;

/** parseInto once the file is text: `hashed` is what the skill's hash is taken of (the file's bytes). */
function parseText(
  report: Report,
  decoded: string,
  hashed: string | Uint8Array,
  keepHash: KeepHash | undefined,
  mayHaveReturn: boolean,
  mayHaveNul: boolean,
  options: ParseOptions,
  fastPath: boolean,
): ParseResult {
  let text = decoded;
  if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
  // One line-ending convention from here on; YAML treats \r\n and \r as one line break too,
  // so line numbers are unchanged.
  if (mayHaveReturn && text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
  // (A whitespace test, not text.trim(), which would copy the whole file.)
  if (!/\S/.test(text)) {
    report.error("empty-file", "the file is empty");
    return report.result();
  }

  let split = splitFrontmatter(text);
  const nul = mayHaveNul ? text.indexOf("\0") : -1;
  if (nul !== -1) {
    // A stray NUL in the instructions (a broken copy) costs a warning; one before them means
    // the file is not the text it looks like (UTF-16, a binary), and the frontmatter cannot be trusted.
    const nulLine = countNewlines(text, nul) + 1;
    if (split.kind !== "ok" || nulLine < split.bodyLine) {
      report.error("binary-file", "the file is not text: it contains a NUL character", nulLine);
      return report.result();
    }
    reportBodyNuls(report, text, nul, nulLine);
    split = { ...split, body: split.body.replaceAll("\0", "\uFFFD") };
  }
  if (split.kind === "none") {
    // A frontmatter pushed down by blank lines is the one mistake worth naming precisely.
    const late = /^\s+---[ \t]*\n/.test(text);
    report.error(
      "no-frontmatter",
      late
        ? "the frontmatter must start on line 1, but blank lines come before its `---`"
        : "the file does not start with `---` YAML frontmatter, so it has no name or description",
      1,
      late ? "Delete the blank lines before the opening `---`." : undefined,
    );
    return report.result();
  }
  if (split.kind === "unclosed") {
    report.error("unclosed-frontmatter", "the frontmatter opened on line 1 is never closed by a `---` line");
    return report.result();
  }

  if (split.yaml.length > MAX_FRONTMATTER_LENGTH) {
    report.error(
      "frontmatter-too-large",
      `the frontmatter is ${split.yaml.length} characters; at most ${MAX_FRONTMATTER_LENGTH} are read`,
    );
    return report.result();
  }

  const locator = new Locator(split.yaml, split.yamlLine);
  const folderName = folderNameOf(options);
  const fast = fastPath ? fastMeta(report, split.yaml, locator, folderName) : undefined;
  const meta = fast ? fast.meta : fullMeta(report, split.yaml, locator, folderName);
  if (meta === undefined) return report.result();

  if (report.mode === "strict") {
    const bodyLines = split.body === "" ? 0 : countNewlines(split.body) + 1;
    if (bodyLines > BODY_MAX_LINES) {
      report.add(
        "warning",
        "body-too-long",
        `the body is ${bodyLines} lines; the spec recommends fewer than ${BODY_MAX_LINES}`,
        split.bodyLine,
      );
    }
  }

  const hash = keepHash === undefined || keepHash(meta.name, meta.role) ? sha256Hex(hashed) : "";
  return report.result({ ...meta, body: split.body, bodyLine: split.bodyLine, file: report.file, hash });
}

/** What {@link parseSkillStart} gives: the parse, and whether its body is only the body's start. */
export interface StartParse {
  result: ParseResult;
  /** `result.skill.body` is the start of the body only (more than the characters asked for). */
  truncated: boolean;
  /** Whether the whole body mentions `$ARGUMENTS` (when truncated). */
  mentionsArguments: boolean;
  /**
   * When truncated: the body's first `chars` UTF-16 units (one more when the last would be
   * half a surrogate pair) as UTF-8, copied from the file's bytes — what a loader keeps of
   * the body, without encoding the decoded start again.
   */
  head?: Buffer;
}

/**
 * Bytes decoded past the frontmatter beyond the characters asked for: a margin for blank lines
 * before the body. ASCII bodies need no more; a body that decodes to fewer characters than
 * asked for is decoded again over 3 bytes per character (UTF-8's most per UTF-16 unit).
 */
const WINDOW_MARGIN = 256;
const LINE_SEPARATOR = Buffer.from("\u2028");
const PARAGRAPH_SEPARATOR = Buffer.from("\u2029");

/**
 * parseSkill for a loader that keeps only the first `chars` characters of each body and reads
 * the rest again on first use (load/lazy-body.ts). A large ordinary file — lenient mode, no
 * byte order mark, carriage return or NUL — is decoded only up to a window past its
 * frontmatter; the rest is checked as UTF-8 (`isUtf8`, as strict as the decoder) and hashed as
 * bytes. Decoding whole files was over a third of what a load of the mirror allocates (225 MB
 * of strings for 134 MB of files), each dropped right after. The result is then the whole
 * parse's — same diagnostics, fields and hash — but for `skill.body`, which holds more than the
 * body's first `chars` characters, exactly those of the whole body (`truncated`). Any other file
 * (a short one, one whose window ends in blank lines) is parsed whole. `keepHash` may decline
 * the hash once the name is known (the skill's `hash` is then "").
 */
export function parseSkillStart(
  bytes: Uint8Array,
  options: ParseOptions,
  chars: number,
  keepHash?: KeepHash,
): StartParse {
  const whole = (): StartParse => ({
    result: parseSkillWith(bytes, options, true, keepHash),
    truncated: false,
    mentionsArguments: false,
    head: undefined,
  });
  if ((options.mode ?? "lenient") !== "lenient") return whole();
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bodyFrom = frontmatterEnd(buffer);
  if (bodyFrom === -1) return whole();
  // In the text, `^` and `$` of the closing fence's pattern also match at U+2028 and U+2029.
  const front = buffer.subarray(0, bodyFrom);
  if (front.indexOf(LINE_SEPARATOR) !== -1 || front.indexOf(PARAGRAPH_SEPARATOR) !== -1) return whole();
  if (
    bodyFrom + chars + WINDOW_MARGIN >= buffer.length ||
    buffer.indexOf(13) !== -1 ||
    buffer.indexOf(0) !== -1
  )
    return whole();
  if (!isUtf8(buffer)) return whole(); // the whole parse reports it
  const report = new Report(options.path ?? "SKILL.md", "lenient");
  let result: ParseResult;
  try {
    // One string for the frontmatter and the window (a concatenation would be copied flat again).
    let text = decodeUpTo(bytes, bodyFrom + chars + WINDOW_MARGIN);
    // Fewer characters than bytes past the frontmatter's bytes (which decode to no more characters than bytes).
    if (text.length - bodyFrom < chars + WINDOW_MARGIN / 2) {
      if (bodyFrom + 3 * chars + WINDOW_MARGIN >= buffer.length) return whole();
      text = decodeUpTo(bytes, bodyFrom + 3 * chars + WINDOW_MARGIN);
    }
    result = parseText(report, text, bytes, keepHash, false, false, options, true);
  } catch {
    return whole();
  }
  // The window's body is trimmed at the window's end: its start is the whole body's only when
  // text goes on past what is asked for (and one more unit, for a surrogate pair at the cut).
  if (result.skill && result.skill.body.length <= chars + 1) return whole();
  if (result.skill === undefined)
    return { result, truncated: false, mentionsArguments: false, head: undefined };
  return {
    result,
    truncated: true,
    mentionsArguments: buffer.indexOf("$ARGUMENTS", bodyFrom) !== -1,
    head: headBytes(buffer, bodyFrom, result.skill.body, chars),
  };
}

/**
 * The UTF-8 bytes of `body`'s first `chars` units (and the second half of a surrogate pair
 * cut there), copied from the file: the body starts after the blank lines that follow the
 * frontmatter's end at `bodyFrom` (ASCII, one byte each), and its start's UTF-8 length is
 * measured on the string.
 */
function headBytes(bytes: Buffer, bodyFrom: number, body: string, chars: number): Buffer {
  let from = bodyFrom;
  for (let i = bodyFrom; ; i++) {
    const byte = bytes[i];
    if (byte === 0x0a) from = i + 1;
    else if (byte !== 0x20 && byte !== 0x09) break;
  }
  const last = body.charCodeAt(chars - 1);
  const units = last >= 0xd800 && last <= 0xdbff ? chars + 1 : chars;
  const length = Buffer.byteLength(body.slice(0, units), "utf8");
  // A buffer of its own, exactly as long: kept for the skill's life, and slices of Node's
  // shared pool left a sixth of the pooled space unused (25 → 30 MiB for the mirror's 21 MiB).
  const head = Buffer.allocUnsafeSlow(length);
  bytes.copy(head, 0, from, from + length);
  return head;
}

/** About the first `length` bytes decoded, cut between two characters (`bytes` is valid UTF-8). */
function decodeUpTo(bytes: Uint8Array, length: number): string {
  let end = length;
  // Back over continuation bytes (10xxxxxx) to a character's first byte.
  while ((bytes[end]! & 0xc0) === 0x80) end--;
  return UTF8.decode(bytes.subarray(0, end));
}

/**
 * Where the line after the closing `---` starts, found in the bytes as splitFrontmatter finds
 * it in the text (every byte it looks for is ASCII, which UTF-8 never uses inside a multi-byte
 * character): -1 when the file does not open with a fence line, or has no closing one followed
 * by a line break.
 */
function frontmatterEnd(bytes: Buffer): number {
  const afterSpaces = (from: number) => {
    let i = from;
    while (bytes[i] === 0x20 || bytes[i] === 0x09) i++;
    return i;
  };
  if (bytes[0] !== 0x2d || bytes[1] !== 0x2d || bytes[2] !== 0x2d) return -1;
  let at = afterSpaces(3);
  if (bytes[at] !== 0x0a) return -1;
  let lineStart = at + 1;
  for (;;) {
    if (bytes[lineStart] === 0x2d && bytes[lineStart + 1] === 0x2d && bytes[lineStart + 2] === 0x2d) {
      at = afterSpaces(lineStart + 3);
      if (bytes[at] === 0x0a) return at + 1;
      if (at >= bytes.length) return -1;
    }
    const next = bytes.indexOf("\n---", lineStart);
    if (next === -1) return -1;
    lineStart = next + 1;
  }
}

/**
 * The common case: the frontmatter read by the fast path — the line reader for the common
 * line shapes, else js-yaml's events. Undefined = take the full path (the fast path gave up
 * before anything was reported). Once the fast path has read the
 * frontmatter, normalizeMeta reports on it exactly as on the full path's: the values are the
 * same and so are the key lines (each key's offset is on the line its `yaml` node starts).
 */
function fastMeta(
  report: Report,
  yaml: string,
  locator: Locator,
  folderName: string | undefined,
): { meta: SkillMeta | undefined } | undefined {
  if (exceedsYamlDepth(yaml)) return undefined;
  const frontmatter = readLineFrontmatter(yaml) ?? readFastFrontmatter(yaml);
  if (frontmatter === undefined) return undefined;
  return { meta: normalizeMeta(report, frontmatter, locator, folderName) };
}

/** The reference path: `yaml`'s Document, with positions for every diagnostic. */
function fullMeta(
  report: Report,
  yaml: string,
  locator: Locator,
  folderName: string | undefined,
): SkillMeta | undefined {
  const frontmatter = readFrontmatter(report, yaml, locator);
  if (frontmatter === undefined) return undefined;
  return normalizeMeta(report, frontmatter, locator, folderName);
}

/** One diagnostic per line holding a NUL (the report caps how many are listed). */
function reportBodyNuls(report: Report, text: string, first: number, firstLine: number): void {
  let line = firstLine;
  let from = first;
  for (let at = first; at !== -1; at = text.indexOf("\0", at + 1)) {
    line += countNewlines(text.slice(from, at));
    from = at;
    report.rule(
      "nul-character",
      "this line contains a NUL character; it is read as U+FFFD (the replacement character)",
      line,
    );
    // The rest of this line is the same diagnostic.
    const end = text.indexOf("\n", at);
    if (end === -1) break;
    at = end;
  }
}

function binary(report: Report, why: string): ParseResult {
  report.error("binary-file", `the file is not text: ${why}`);
  return report.result();
}

function folderNameOf(options: ParseOptions): string | undefined {
  if (options.folderName === false) return undefined;
  if (options.folderName !== undefined) return options.folderName;
  if (options.path === undefined) return undefined;
  const folder = basename(dirname(options.path));
  return folder === "" || folder === "." || folder === "/" ? undefined : folder;
}
