/**
 * The confined reader: one page of a file in an active skill's own folder (progressive
 * disclosure's third level). Text comes back as text, a page at a time; anything else is
 * described (size and type), never dumped into the model's context.
 */
import fs from "node:fs";
import path from "node:path";
import type { SkillFileResult } from "../types.js";
import { confine } from "./confine.js";

/** Bytes per page, and the most a call may ask for. */
export const PAGE_BYTES = 64 * 1024;
/** Bytes looked at to tell text from binary. */
const SNIFF_BYTES = 8 * 1024;
/** The smallest page: always room for whole characters, so every page moves forward. */
const MIN_PAGE_BYTES = 256;

type Failure = Extract<SkillFileResult, { status: "error" }>;

function failure(error_type: Failure["error_type"], message: string): Failure {
  return { status: "error", error_type, message };
}

const MAGIC: Array<[string, number[]]> = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46, 0x38]],
  ["application/pdf", [0x25, 0x50, 0x44, 0x46]],
  ["application/zip", [0x50, 0x4b, 0x03, 0x04]],
  ["application/gzip", [0x1f, 0x8b]],
  ["application/wasm", [0x00, 0x61, 0x73, 0x6d]],
  ["application/x-executable", [0x7f, 0x45, 0x4c, 0x46]],
];

const TEXT_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".html": "text/html",
  ".xml": "application/xml",
  ".csv": "text/csv",
  ".py": "text/x-python",
  ".sh": "text/x-shellscript",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/typescript",
};

function mediaTypeOf(file: string, head: Uint8Array, text: boolean): string {
  for (const [type, bytes] of MAGIC) if (bytes.every((b, i) => head[i] === b)) return type;
  const ext = path.extname(file).toLowerCase();
  if (text) return TEXT_TYPES[ext] ?? "text/plain";
  return "application/octet-stream";
}

/** Text: no NUL byte and valid UTF-8 (a sequence cut at the end of the sample is fine). */
function looksLikeText(sample: Uint8Array, whole: boolean): boolean {
  if (sample.includes(0)) return false;
  const end = whole ? sample.length : utf8Boundary(sample, sample.length);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

/** The largest index ≤ `at` that does not fall inside a UTF-8 sequence. */
function utf8Boundary(bytes: Uint8Array, at: number): number {
  let i = Math.min(at, bytes.length);
  if (i === bytes.length && i === 0) return 0;
  // Step back over continuation bytes (10xxxxxx), then check the lead byte's sequence fits.
  let back = 0;
  while (i - back - 1 >= 0 && back < 4 && ((bytes[i - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const leadAt = i - back - 1;
  if (leadAt < 0) return i;
  const lead = bytes[leadAt] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (length > back + 1) i = leadAt; // the sequence is cut: the page ends before it
  return i;
}

function readAt(fd: number, position: number, length: number): Uint8Array {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = fs.readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

function integer(value: unknown, name: string): number | undefined | string {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return `"${name}" must be a whole number ≥ 0`;
  return n;
}

/** One page of `requested` in `dir`, for skill `skill`. Never throws. */
export function readSkillFilePage(
  skill: string,
  dir: string,
  requested: unknown,
  options: { offset?: unknown; limit?: unknown } = {},
): SkillFileResult {
  const offset = integer(options.offset, "offset");
  const limit = integer(options.limit, "limit");
  if (typeof offset === "string") return failure("INVALID_ARGUMENTS", offset);
  if (typeof limit === "string") return failure("INVALID_ARGUMENTS", limit);
  const found = confine(dir, requested);
  if (!found.ok) {
    return failure(found.error, `Cannot read that file of skill "${skill}": ${found.problem}.`);
  }
  const size = found.stat.size;
  const start = offset ?? 0;
  const pageBytes = Math.min(Math.max(limit ?? PAGE_BYTES, MIN_PAGE_BYTES), PAGE_BYTES);
  let fd: number;
  try {
    // O_NOFOLLOW: the real path was checked; a link swapped in since is not followed.
    fd = fs.openSync(found.real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    return failure(
      "NOT_FOUND",
      `Cannot open "${found.relative}": ${(error as NodeJS.ErrnoException).code ?? "error"}.`,
    );
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile() || opened.ino !== found.stat.ino || opened.dev !== found.stat.dev) {
      return failure("INVALID_PATH", `"${found.relative}" changed while it was opened; try again.`);
    }
    const head = readAt(fd, 0, Math.min(SNIFF_BYTES, size));
    const text = looksLikeText(head, head.length === size);
    const mediaType = mediaTypeOf(found.relative, head, text);
    const base = { skill, path: found.relative, size, mediaType };
    if (!text) {
      return {
        status: "success",
        data: { ...base, kind: "binary", offset: 0, nextOffset: null },
        message: `"${found.relative}" is a binary file (${mediaType}, ${size} bytes): it is not shown. Use it only as the skill's instructions say (e.g. pass its path to a tool).`,
      };
    }
    if (start > size) {
      return failure("INVALID_ARGUMENTS", `"offset" ${start} is past the end of the file (${size} bytes).`);
    }
    // Read a few bytes more so a page can end on a character boundary; start on one too.
    const raw = readAt(fd, start, Math.min(pageBytes + 4, size - start));
    let from = 0;
    while (from < raw.length && from < 4 && ((raw[from] ?? 0) & 0xc0) === 0x80) from++;
    const atEnd = start + raw.length >= size && raw.length <= pageBytes;
    const to = atEnd ? raw.length : utf8Boundary(raw, Math.min(pageBytes, raw.length));
    const content = new TextDecoder("utf-8").decode(raw.subarray(from, Math.max(to, from)));
    const next = start + to;
    const nextOffset = next >= size ? null : next;
    return {
      status: "success",
      data: { ...base, kind: "text", offset: start + from, content, nextOffset },
      message:
        nextOffset === null
          ? start === 0
            ? `The whole of "${found.relative}" (${size} bytes).`
            : `The end of "${found.relative}" (${size} bytes).`
          : `Bytes ${start + from}–${next} of ${size} of "${found.relative}". Read on with offset ${next} only if you need more.`,
    };
  } catch (error) {
    return failure("NOT_FOUND", `Cannot read "${found.relative}": ${(error as Error).message}.`);
  } finally {
    fs.closeSync(fd);
  }
}
