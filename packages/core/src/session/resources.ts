/**
 * The files an activated skill brings (scripts, references, assets, extra Markdown),
 * listed once at activation so the model knows they exist and reads them only when the
 * instructions call for it (progressive disclosure). Synchronous because activation is:
 * one small directory walk per activated skill, cached for the skill's version.
 */
import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import type { Skill } from "../types.js";

const LIMIT = 50;
const MAX_DEPTH = 4;
const cache = new Map<string, string[]>();

function skipped(name: string): boolean {
  return name.startsWith(".") || name === "node_modules" || name === "__pycache__";
}

/** Relative POSIX paths of the files beside a skill's SKILL.md (at most 50, sorted; links not followed). */
export function skillResources(skill: Pick<Skill, "dir" | "hash">): string[] {
  const dir = skill.dir;
  if (!dir) return [];
  const key = `${dir}\u0000${skill.hash}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const found: string[] = [];
  const visit = (rel: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return; // unreadable: nothing to offer, never an error in the host's turn
    }
    // A folder with its own SKILL.md is another skill, not this one's resource.
    if (rel && entries.some((e) => e.name === "SKILL.md" && e.isFile())) return;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (found.length >= LIMIT) return;
      if (skipped(entry.name)) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isFile()) {
        if (child !== "SKILL.md") found.push(child);
      } else if (entry.isDirectory() && depth < MAX_DEPTH) visit(child, depth + 1);
    }
  };
  visit("", 0);
  if (cache.size > 1000) cache.clear();
  cache.set(key, found);
  return found;
}
