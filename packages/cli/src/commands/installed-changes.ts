/**
 * How an installed skill folder differs from a set of file hashes (the lock file's, or a
 * new copy's): files changed, added and gone. Links and other non-files count as added,
 * never followed.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { sha256 } from "@skillshelf/core";

export interface FileChanges {
  changed: string[];
  added: string[];
  removed: string[];
}

export const noChanges = (c: FileChanges) => c.changed.length + c.added.length + c.removed.length === 0;

/** `after`'s files compared with `before`'s (relative path → sha256). */
export function compareFiles(before: Record<string, string>, after: Record<string, string>): FileChanges {
  const changes: FileChanges = { changed: [], added: [], removed: [] };
  for (const [rel, hash] of Object.entries(after)) {
    if (!Object.hasOwn(before, rel)) changes.added.push(rel);
    else if (before[rel] !== hash) changes.changed.push(rel);
  }
  for (const rel of Object.keys(before)) if (!Object.hasOwn(after, rel)) changes.removed.push(rel);
  return changes;
}

/** What is in `dir` now, as relative path → sha256 (a link or device maps to ""). */
export async function hashFolder(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = Object.create(null);
  const walk = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else files[child] = entry.isFile() ? sha256(await fs.readFile(path.join(dir, child))) : "";
    }
  };
  await walk("");
  return files;
}
