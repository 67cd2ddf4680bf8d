/**
 * Reading skill files during a load, tuned for the 2-core target.
 *
 * The common case — a small regular file whose size the signature's stat already gave — is
 * read synchronously: open, one read of `size + 1` bytes, close. Anything unusual (too large,
 * not a regular file, grown since the stat, unreadable) goes through `readSkillFile`, which
 * owns the careful handling and its diagnostics. Files are handled in batches, with a turn
 * of the event loop between batches, so a large load never holds the thread for long.
 *
 * Why sync: reading the 1,000 files of the load benchmark (9 MB, page cache warm) — lstat,
 * open, read, close — takes ≈ 10 ms in a warm process and ≈ 20 ms in a fresh one; with
 * callback `fs.readFile` for all of them at once ≈ 28 and ≈ 40 ms of CPU, `fs.promises.readFile`
 * ≈ 50 ms: each file costs several thread-pool round trips and callbacks on this thread,
 * more than the reads themselves, and overlapping them with parsing did not win it back
 * (bench/RESULTS.md, "Loading"). FileHandle reads cost more still.
 */
import fs from "node:fs";
import { MAX_SKILL_FILE_BYTES } from "../parse/limits.js";
import { type KeepHash, parseSkillStart, type StartParse } from "../parse/parse-skill.js";
import { readSkillFile } from "../parse/read-skill-file.js";
import type { ParseOptions, ParseResult } from "../types.js";
import { BODY_HEAD_CHARS } from "./lazy-body.js";
import { type Signature, signatureOf } from "./signature.js";

/** Files per batch: the most the loader holds the thread for between two event-loop turns. */
export const READ_BATCH = 64;

// Non-blocking open: if the path became a FIFO since the stat, the read fails instead of hanging.
const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * One buffer for every read: parseSkill hashes and decodes the bytes before it returns and
 * keeps none of them, so the next file can reuse the space. A buffer per file (≈ 9 MB per
 * 1,000 corpus files, most too large for Node's pool) was ≈ 10 ms of allocation and GC in a
 * fresh process. Grows to the largest file read (at most the size cap + 1 byte). Safe with
 * several loads at once: a view is parsed before anything awaits.
 */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * The bytes of an ordinary skill file, read with one `read` call sized by its stat, or
 * undefined when readSkillFile should handle it (including a file that grew since the stat:
 * the read asks for one byte more than the stat said, so getting it means the size moved).
 * The bytes are a view of the shared buffer: valid until the next call.
 */
export function readBytes(file: string, sig: Signature | undefined): Uint8Array | undefined {
  if (!sig?.isFile || sig.size > MAX_SKILL_FILE_BYTES) return undefined;
  let fd: number;
  try {
    fd = fs.openSync(file, FLAGS);
  } catch {
    return undefined;
  }
  try {
    const want = sig.size + 1;
    if (scratch.length < want) {
      scratch = Buffer.allocUnsafe(Math.min(Math.max(want, scratch.length * 2), MAX_SKILL_FILE_BYTES + 1));
    }
    let length = 0;
    // One read returns the whole file on local disks; loop only on a short read.
    do {
      const read = fs.readSync(fd, scratch, length, want - length, length);
      if (read === 0) break;
      length += read;
    } while (length < sig.size);
    return length === want ? undefined : scratch.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

export interface ReadItem {
  file: string;
  options: ParseOptions;
  /** The file's signature, if the caller has just taken it (saves a second stat). */
  sig?: Signature;
  /** Whether the skill's hash is wanted, once its name is known (see parseSkillStart). */
  keepHash?: KeepHash;
}

/**
 * Reads and parses `items`, calling `onResult` in order with each file's signature taken
 * before its read (a write after that shows up as a change on the next refresh) and, for a
 * file read here, what parseSkillStart says of its body (`result.skill.body` may be its start
 * only). `describe`
 * says what to read for an item, when it is read: a list of them made up front would live
 * through the whole load (15,725 of them for the mirror), and what a load keeps that long
 * grows V8's young generation.
 */
export async function readSkillFiles<T>(
  items: readonly T[],
  describe: (item: T) => ReadItem,
  onResult: (index: number, sig: Signature | undefined, result: ParseResult, start?: StartParse) => void,
): Promise<void> {
  for (let start = 0; start < items.length; start += READ_BATCH) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = Math.min(start + READ_BATCH, items.length);
    for (let i = start; i < end; i++) {
      const item = describe(items[i]!);
      const sig = item.sig ?? signatureOf(item.file);
      const bytes = readBytes(item.file, sig);
      // Only the body's start is decoded: the loader keeps no more (see parseSkillStart).
      if (bytes) {
        const start = parseSkillStart(bytes, item.options, BODY_HEAD_CHARS, item.keepHash);
        onResult(i, sig, start.result, start);
      } else {
        onResult(i, sig, await readSkillFile(item.file, item.options));
      }
    }
  }
}
