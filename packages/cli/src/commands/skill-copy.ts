/**
 * Copying a skill folder from a source the user has not vetted. Only regular files and
 * real folders are copied: a link is never followed (one pointing at ~/.ssh would otherwise
 * copy a key into the project) and is reported as skipped. Set-id bits are dropped, and a
 * folder over the size or file-count limit is refused rather than copied in part.
 */
import { constants, type Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { sha256 } from "@skillshelf/core";

export const MAX_SKILL_FOLDER_FILES = 2_000;
export const MAX_SKILL_FOLDER_BYTES = 50 * 1024 * 1024;
const SKIPPED = new Set([".git"]);

/** A skill folder that is not installed as it is: the message says why. */
export class InstallRefused extends Error {}

export interface CopiedFolder {
  /** Relative path (with /) → sha256 of each file copied. */
  files: Record<string, string>;
  /** Relative paths left out: links and anything that is not a file or folder. */
  skipped: string[];
}

/** Copies `from` into `to`, which must not exist yet. */
export async function copySkillFolder(from: string, to: string): Promise<CopiedFolder> {
  const result: CopiedFolder = { files: {}, skipped: [] };
  let count = 0;
  let bytes = 0;
  const walk = async (rel: string): Promise<void> => {
    await fs.mkdir(path.join(to, rel));
    const entries: Dirent[] = await fs.readdir(path.join(from, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await walk(child);
        continue;
      }
      if (!entry.isFile()) {
        result.skipped.push(child);
        continue;
      }
      const source = path.join(from, child);
      const handle = await fs.open(source, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const info = await handle.stat();
        if (!info.isFile()) {
          result.skipped.push(child);
          continue;
        }
        count++;
        bytes += info.size;
        if (count > MAX_SKILL_FOLDER_FILES || bytes > MAX_SKILL_FOLDER_BYTES) {
          throw new InstallRefused(
            `${path.basename(from)} holds more than ${MAX_SKILL_FOLDER_FILES} files or ${MAX_SKILL_FOLDER_BYTES / 1024 / 1024} MiB; not installed`,
          );
        }
        const content = await handle.readFile();
        await fs.writeFile(path.join(to, child), content, { flag: "wx", mode: info.mode & 0o755 });
        result.files[child] = sha256(content);
      } finally {
        await handle.close();
      }
    }
  };
  await walk("");
  return result;
}
