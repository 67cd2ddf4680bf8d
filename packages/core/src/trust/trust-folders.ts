/**
 * Recording trust: what `skillshelf trust <path>` does. Each skill folder found at the path
 * (the folder itself when it holds a SKILL.md, else its `<name>/SKILL.md` children) is
 * recorded with its content hashes and the fields trust is judged on, as they are now.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { readSkillFile } from "../parse/read-skill-file.js";
import { policyOf } from "./evaluate.js";
import { folderDigest, scriptEntries } from "./folder-digest.js";
import { type TrustRecord, updateTrustFile } from "./trust-store.js";

export interface TrustedFolder {
  folder: string;
  name: string;
  record: TrustRecord;
  /** The scripts it brings (what the user is trusting to run, if the host runs scripts). */
  scripts: string[];
}

async function hasSkillFile(dir: string): Promise<boolean> {
  const stat = await fs.lstat(path.join(dir, "SKILL.md")).catch(() => undefined);
  return Boolean(stat?.isFile());
}

/** The skill folders at `target`: itself, or its children (and one category level below). */
export async function skillFoldersAt(target: string): Promise<string[]> {
  const real = await fs.realpath(target);
  if (await hasSkillFile(real)) return [real];
  const found: string[] = [];
  const visit = async (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const child = path.join(dir, entry.name);
      if (await hasSkillFile(child)) found.push(child);
      else if (depth < 1) await visit(child, depth + 1);
    }
  };
  await visit(real, 0);
  return found;
}

/** The record of one skill folder as it is now, or why it cannot be trusted. */
export async function trustRecordOf(folder: string, now: Date = new Date()): Promise<TrustRecord> {
  const parsed = await readSkillFile(path.join(folder, "SKILL.md"), { mode: "lenient" });
  if (!parsed.skill) {
    const why = parsed.diagnostics.find((d) => d.severity === "error")?.message ?? "it does not load";
    throw new Error(`${folder}: ${why}`);
  }
  const digest = await folderDigest(folder);
  return {
    name: parsed.skill.name,
    trustedAt: now.toISOString(),
    files: digest.files,
    ...(digest.truncated && { truncated: true }),
    policy: policyOf(parsed.skill),
  };
}

/** Trust every skill folder at `target` (recorded in `file`). */
export async function trustSkillFolders(
  target: string,
  options: { file: string; now?: Date },
): Promise<TrustedFolder[]> {
  const folders = await skillFoldersAt(target);
  const records: TrustedFolder[] = [];
  for (const folder of folders) {
    const record = await trustRecordOf(folder, options.now);
    records.push({ folder, name: record.name, record, scripts: Object.keys(scriptEntries(record)) });
  }
  if (records.length > 0) {
    await updateTrustFile(options.file, (trust) => {
      for (const r of records) trust.folders[r.folder] = r.record;
    });
  }
  return records;
}

/** Forget the trust of every skill folder at `target`. Returns the folders forgotten. */
export async function revokeSkillFolders(target: string, options: { file: string }): Promise<string[]> {
  const folders = await skillFoldersAt(target);
  const removed: string[] = [];
  await updateTrustFile(options.file, (trust) => {
    for (const folder of folders) {
      if (trust.folders[folder]) {
        delete trust.folders[folder];
        removed.push(folder);
      }
    }
  });
  return removed;
}
