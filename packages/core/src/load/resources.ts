/**
 * A skill's resource files (`scripts/`, `references/`, `assets/`), listed on demand — never
 * at load, so a skill with a thousand assets costs nothing until it is activated.
 */
import type { Dirent } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Skill } from "../types.js";
import { isSkippedName } from "./scan.js";

export const RESOURCE_FOLDERS = ["scripts", "references", "assets"] as const;

export interface ListResourcesOptions {
  /** Stop after this many files (default 200): a listing is for a model, not an archive. */
  limit?: number;
  /** Folder levels below each resource folder (default 4). */
  maxDepth?: number;
}

/**
 * Relative POSIX paths (e.g. `scripts/run.py`) of the files in a skill's resource folders,
 * sorted. Hidden entries and `node_modules` are skipped and links are not followed, so a
 * listing never leaves the skill's folder. Builtins (no folder) have none.
 */
export async function listResources(
  skill: Pick<Skill, "dir"> | string | undefined,
  options: ListResourcesOptions = {},
): Promise<string[]> {
  const dir = typeof skill === "string" ? skill : skill?.dir;
  if (!dir) return [];
  const limit = options.limit ?? 200;
  const maxDepth = options.maxDepth ?? 4;
  const found: string[] = [];

  const visit = async (rel: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return; // absent or unreadable: nothing to offer
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (found.length >= limit) return;
      if (isSkippedName(entry.name)) continue;
      const child = `${rel}/${entry.name}`;
      if (entry.isFile()) found.push(child);
      else if (entry.isDirectory() && depth < maxDepth) await visit(child, depth + 1);
    }
  };

  for (const folder of RESOURCE_FOLDERS) {
    if (found.length >= limit) break;
    await visit(folder, 1);
  }
  return found;
}
