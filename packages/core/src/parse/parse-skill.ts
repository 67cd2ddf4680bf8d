/**
 * parseSkill: SKILL.md text or bytes → a normalised skill plus located diagnostics.
 *
 * Never throws and never hangs on bad input: every failure becomes a diagnostic, and the
 * skill is returned exactly when no diagnostic is an error. The happy path builds one YAML
 * document and walks its top-level pairs once; line numbers are only computed when a
 * diagnostic needs one.
 */
import { Buffer } from "node:buffer";
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
): ParseResult {
  const report = new Report(options.path ?? "SKILL.md", options.mode ?? "lenient");
  try {
    return parseInto(report, input, options, fastPath);
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
  const hash = sha256Hex(input);

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

  return report.result({ ...meta, body: split.body, bodyLine: split.bodyLine, file: report.file, hash });
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
