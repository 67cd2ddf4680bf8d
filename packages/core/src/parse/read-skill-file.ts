/**
 * Reading a SKILL.md from disk without trusting it: the size is checked with fstat before
 * reading, and at most `maxBytes + 1` bytes are ever read (a file that grows between the
 * stat and the read is still caught). Anything but a regular file is refused: the file is
 * opened non-blocking, so even a FIFO cannot hang the open, and is never read.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { diagnostic } from "../diagnostic.js";
import type { ParseOptions, ParseResult } from "../types.js";
import { MAX_SKILL_FILE_BYTES } from "./limits.js";
import { parseSkill } from "./parse-skill.js";

export interface ReadSkillOptions extends ParseOptions {
  /** Refuse files larger than this many bytes (default MAX_SKILL_FILE_BYTES, 1 MiB). */
  maxBytes?: number;
}

// O_NONBLOCK does not exist on Windows, where opening a FIFO does not block anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Reads and parses one SKILL.md. Never throws: I/O problems come back as diagnostics. */
export async function readSkillFile(path: string, options: ReadSkillOptions = {}): Promise<ParseResult> {
  const file = options.path ?? path;
  const maxBytes = options.maxBytes ?? MAX_SKILL_FILE_BYTES;
  const fail = (code: "read-error" | "file-too-large", message: string, hint?: string): ParseResult => ({
    diagnostics: [diagnostic({ severity: "error", code, message, file, line: 1, hint })],
  });
  const tooLarge = (size: number, qualifier = "") =>
    fail(
      "file-too-large",
      `the file is ${qualifier}${size} bytes; SKILL.md files over ${maxBytes} bytes are not loaded`,
    );

  let bytes: Uint8Array;
  try {
    const handle = await open(path, OPEN_FLAGS);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return fail("read-error", "not a regular file", "Make SKILL.md a regular file.");
      if (info.size > maxBytes) return tooLarge(info.size);
      // Sized by the stat, grown (up to the cap + 1) only if the file grew meanwhile.
      let buffer = new Uint8Array(info.size + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > maxBytes) return tooLarge(length, "at least ");
        if (length === buffer.length) {
          const grown = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
          grown.set(buffer);
          buffer = grown;
        }
      }
      bytes = buffer.subarray(0, length);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    return fail(
      "read-error",
      `cannot read the file${code ? ` (${code})` : ""}: ${(error as Error)?.message}`,
    );
  }
  return parseSkill(bytes, { ...options, path: file });
}
