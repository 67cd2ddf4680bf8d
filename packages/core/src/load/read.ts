/**
 * Reading skill files during a load, tuned for the 2-core target.
 *
 * The common case — a small regular file — is read with callback-style `fs.readFile` and
 * parsed; anything unusual (too large, not a regular file, grown past the cap since the
 * stat, unreadable) goes through `readSkillFile`, which owns the careful handling and its
 * diagnostics. Files are read in batches, the next batch's reads in flight while the current
 * batch is parsed: I/O overlaps parsing, and memory stays bounded (two batches of bytes).
 *
 * Measured per 1,000 corpus files (bench/RESULTS.md, "Loading"): readSkillFile for each file,
 * 16 in flight, ~105 ms (its FileHandle calls cost main-thread time); this, ~60 ms — the
 * parse itself being ~57 ms of it.
 */
import fs from "node:fs";
import { MAX_SKILL_FILE_BYTES } from "../parse/limits.js";
import { parseSkill } from "../parse/parse-skill.js";
import { readSkillFile } from "../parse/read-skill-file.js";
import type { ParseOptions, ParseResult } from "../types.js";
import { type Signature, signatureOf } from "./signature.js";

/** Files per batch: enough reads in flight to keep the thread pool busy while a batch parses. */
export const READ_BATCH = 64;

// Non-blocking open: if the path became a FIFO since the stat, the read fails instead of hanging.
const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** The bytes of an ordinary skill file, or undefined when readSkillFile should handle it. */
function fetchBytes(file: string, sig: Signature | undefined): Promise<Uint8Array | undefined> {
  if (!sig?.isFile || sig.size > MAX_SKILL_FILE_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    fs.readFile(file, { flag: FLAGS }, (error, bytes) => {
      resolve(error || bytes.length > MAX_SKILL_FILE_BYTES ? undefined : bytes);
    });
  });
}

export interface ReadItem {
  file: string;
  options: ParseOptions;
}

/**
 * Reads and parses `items`, calling `onResult` in order with each file's signature taken
 * before its read (a write after that shows up as a change on the next refresh).
 */
export async function readSkillFiles(
  items: readonly ReadItem[],
  onResult: (index: number, sig: Signature | undefined, result: ParseResult) => void,
): Promise<void> {
  const fetchBatch = (start: number) => {
    const batch = items.slice(start, start + READ_BATCH);
    const sigs = batch.map((item) => signatureOf(item.file));
    return Promise.all(batch.map((item, i) => fetchBytes(item.file, sigs[i]))).then((bytes) => ({
      sigs,
      bytes,
    }));
  };
  let next = fetchBatch(0);
  for (let start = 0; start < items.length; start += READ_BATCH) {
    const { sigs, bytes } = await next;
    if (start + READ_BATCH < items.length) next = fetchBatch(start + READ_BATCH);
    for (let i = 0; i < sigs.length; i++) {
      const item = items[start + i]!;
      const data = bytes[i];
      const result = data ? parseSkill(data, item.options) : await readSkillFile(item.file, item.options);
      onResult(start + i, sigs[i], result);
    }
  }
}
