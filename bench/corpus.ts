/**
 * Benchmark skill folders built from the real corpus (../shared/data/skills-corpus): the
 * 939 SKILL.md files replicated under new names until there are `count` of them, each in
 * `<root>/<name>/SKILL.md` with its frontmatter `name:` rewritten to match the folder, so
 * every loader sees a valid Agent Skills layout. Built once per size in the OS temp folder
 * and reused while the corpus is unchanged.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import {
  hasSharedData,
  IN_CI,
  SHARED_DATA_DIR,
  SHARED_DATA_NOTICE,
} from "@skillshelf/test-utils/shared-data";

// Every benchmark measures the real data: without it there is nothing honest to run, so say
// so in one line and stop (a failure under CI, where the data must be there).
if (!hasSharedData) {
  console.log(`bench: nothing measured, ${SHARED_DATA_NOTICE}`);
  process.exit(IN_CI ? 1 : 0);
}

/** `<shared>/data/` ($SKILLSHELF_SHARED or the `shared` folder beside the repository). */
export const DATA_DIR = `${SHARED_DATA_DIR}/`;
export const CORPUS_DIR = path.join(DATA_DIR, "skills-corpus");

export interface CorpusFile {
  /** Path relative to the corpus folder. */
  path: string;
  text: string;
}

let corpusCache: CorpusFile[] | undefined;

/** Every SKILL.md listed in MANIFEST.tsv, in manifest order. */
export function corpusFiles(): CorpusFile[] {
  if (corpusCache) return corpusCache;
  const manifest = fs.readFileSync(path.join(CORPUS_DIR, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
  corpusCache = manifest
    .map((line) => line.split("\t")[0]!)
    .filter((p) => /(^|\/)skill\.md$/i.test(p))
    .map((p) => ({ path: p, text: fs.readFileSync(path.join(CORPUS_DIR, p), "utf8") }));
  return corpusCache;
}

/** Replaces the first top-level `name:` line of the frontmatter; files without one are left as they are. */
export function renameSkill(text: string, name: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, "").trim() !== "---") return text;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "---") break;
    if (/^name\s*:/.test(line)) {
      lines[i] = `name: ${name}`;
      return lines.join(eol);
    }
  }
  return text;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "skill"
  );
}

/**
 * A folder with `count` skills (`<root>/<name>/SKILL.md`). Names are `<original-folder>-<n>`,
 * so they are unique, spec-valid and equal to their folder.
 */
export function buildSkillTree(count: number): string {
  const files = corpusFiles();
  const fingerprint = createHash("sha256");
  for (const f of files) fingerprint.update(f.path).update(f.text);
  const key = fingerprint.digest("hex").slice(0, 12);
  const root = path.join(os.tmpdir(), `skillshelf-bench-${count}-${key}`);
  const done = path.join(root, ".complete");
  if (fs.existsSync(done)) return path.join(root, "skills");

  fs.rmSync(root, { recursive: true, force: true });
  const skills = path.join(root, "skills");
  fs.mkdirSync(skills, { recursive: true });
  for (let i = 0; i < count; i++) {
    const source = files[i % files.length]!;
    const name = `${slug(path.basename(path.dirname(source.path)))}-${i}`;
    fs.mkdirSync(path.join(skills, name));
    fs.writeFileSync(path.join(skills, name, "SKILL.md"), renameSkill(source.text, name));
  }
  fs.writeFileSync(done, "");
  return skills;
}

/**
 * The real mirror (../shared/data/skills-mirror: 15,725 SKILL.md files from 527 repositories,
 * `<owner>@<repo>/<skill>/SKILL.md`, one category level per repository; see its NOTICE): a
 * real vocabulary and real duplicates, unlike the copied corpus. Read in place.
 */
export const MIRROR_DIR = path.join(DATA_DIR, "skills-mirror");

/** Every skill file of the mirror, relative to it, in code-unit order. */
export function mirrorFiles(): string[] {
  const files: string[] = [];
  for (const repo of fs.readdirSync(MIRROR_DIR).sort()) {
    const repoDir = path.join(MIRROR_DIR, repo);
    if (!fs.statSync(repoDir).isDirectory()) continue;
    for (const skill of fs.readdirSync(repoDir).sort()) {
      for (const name of ["SKILL.md", "skill.md"]) {
        if (fs.existsSync(path.join(repoDir, skill, name))) {
          files.push(path.join(repo, skill, name));
          break;
        }
      }
    }
  }
  return files;
}

/**
 * A part of the mirror with `count` files, taken evenly across it (every k-th file, so the
 * part spreads over all repositories like the whole), copied with its layout into the OS temp
 * folder and reused while the mirror is unchanged. `count` ≥ the mirror's size: the mirror.
 */
export function mirrorSubset(count: number): string {
  const files = mirrorFiles();
  if (count >= files.length) return MIRROR_DIR;
  const picked = Array.from({ length: count }, (_, i) => files[Math.floor((i * files.length) / count)]!);
  const fingerprint = createHash("sha256");
  for (const f of picked) fingerprint.update(f).update(String(fs.statSync(path.join(MIRROR_DIR, f)).mtimeMs));
  const root = path.join(os.tmpdir(), `skillshelf-mirror-${count}-${fingerprint.digest("hex").slice(0, 12)}`);
  const done = path.join(root, ".complete");
  const skills = path.join(root, "skills");
  if (fs.existsSync(done)) return skills;
  fs.rmSync(root, { recursive: true, force: true });
  for (const f of picked) {
    fs.mkdirSync(path.join(skills, path.dirname(f)), { recursive: true });
    fs.copyFileSync(path.join(MIRROR_DIR, f), path.join(skills, f));
  }
  fs.writeFileSync(done, "");
  return skills;
}

/**
 * Requests for a shelf of mirror skills: MetaTool Task1 queries (half need no tool) and
 * requests written from mirror descriptions, interleaved, 400 in all; written to a JSON file
 * in the OS temp folder for the processes that time them (its path is returned).
 */
export function mirrorMessagesFile(): string {
  const task1 = JSON.parse(
    fs.readFileSync(path.join(DATA_DIR, "routing", "metatool", "Task1.json"), "utf8"),
  ) as { query: string }[];
  const files = mirrorFiles();
  const fromSkills: string[] = [];
  for (let i = 0; i < files.length && fromSkills.length < 200; i += 37) {
    const text = fs.readFileSync(path.join(MIRROR_DIR, files[i]!), "utf8");
    const description = /\ndescription:\s*["'>|]?\s*(.+)/u.exec(text)?.[1] ?? "";
    if (description.length > 20)
      fromSkills.push(`Please help me: ${description.split(/\s+/u).slice(0, 12).join(" ")}`);
  }
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const q = task1[i]?.query;
    if (q) out.push(q);
    const s = fromSkills[i];
    if (s) out.push(s);
  }
  const file = path.join(os.tmpdir(), "skillshelf-bench-mirror-messages.json");
  fs.writeFileSync(file, JSON.stringify(out));
  return file;
}
