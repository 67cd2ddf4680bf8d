/**
 * A skill folder's content, as hashes: what the user trusted is exactly these bytes. Every
 * file counts (hidden ones too: a script may read them), links are recorded by their target
 * and never followed. Hashes are cached by path, size, mtime and inode, so a refresh of an
 * unchanged folder only stats it.
 */
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Files hashed per folder; a bigger folder is recorded as truncated (and never matches a full one). */
export const MAX_DIGEST_FILES = 2_000;
const MAX_DEPTH = 8;
const SKIPPED = new Set([".git", "node_modules", "__pycache__"]);

export interface FolderDigest {
  /** Relative POSIX path → `sha256:<hex>` for files, `link:<target>` for links. */
  files: Record<string, string>;
  /** More than MAX_DIGEST_FILES files: the digest is incomplete. */
  truncated: boolean;
}

const hashes = new Map<string, { key: string; hash: string }>();

async function fileHash(file: string): Promise<string | undefined> {
  let stat: import("node:fs").Stats;
  try {
    stat = await fs.lstat(file);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) {
    const target = await fs.readlink(file).catch(() => "?");
    return `link:${target}`;
  }
  if (!stat.isFile()) return undefined;
  const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const cached = hashes.get(file);
  if (cached?.key === key) return cached.hash;
  const bytes = await fs.readFile(file).catch(() => undefined);
  if (bytes === undefined) return undefined;
  const hash = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (hashes.size > 20_000) hashes.clear();
  hashes.set(file, { key, hash });
  return hash;
}

/** The digest of the folder `dir` (its real content, below it, links not followed). */
export async function folderDigest(dir: string): Promise<FolderDigest> {
  const files: Record<string, string> = {};
  let count = 0;
  let truncated = false;
  const visit = async (rel: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) await visit(child, depth + 1);
        else truncated = true;
        continue;
      }
      if (count >= MAX_DIGEST_FILES) {
        truncated = true;
        return;
      }
      const hash = await fileHash(path.join(dir, child));
      if (hash === undefined) continue;
      files[child] = hash;
      count++;
    }
  };
  await visit("", 0);
  return { files, truncated };
}

/** The files under `scripts/` of a digest, with their hashes. */
export function scriptEntries(digest: Pick<FolderDigest, "files">): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, hash] of Object.entries(digest.files)) if (file.startsWith("scripts/")) out[file] = hash;
  return out;
}
