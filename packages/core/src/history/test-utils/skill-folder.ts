/**
 * Test helper: a temp project with skill folders and a SkillSource that re-reads them on
 * every `get` (so it always sees what is on disk, as a refreshed shelf would). The fault
 * tests' child processes import it as plain JavaScript: keep it free of workspace packages.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseSkill } from "../../parse/parse-skill.js";
import type { Skill, SkillSource } from "../../types.js";

export interface SkillFolder {
  root: string;
  skillsDir: string;
  stateDir: string;
  source: SkillSource;
  /** Writes `<skillsDir>/<name>/SKILL.md`; returns its path. */
  add(name: string, content: string): Promise<string>;
  fileOf(name: string): string;
  builtins: Map<string, Skill>;
  cleanup(): Promise<void>;
}

export function readSkill(file: string, scope: Skill["scope"] = "project"): Skill | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = parseSkill(readFileSync(file), { path: file });
  if (!parsed.skill) return undefined;
  return { ...parsed.skill, scope, file, dir: dirname(file), locked: false };
}

export async function makeSkillFolder(root?: string): Promise<SkillFolder> {
  const base = root ?? (await mkdtemp(join(tmpdir(), "skillshelf-history-")));
  const skillsDir = join(base, ".skillshelf", "skills");
  const stateDir = join(base, ".skillshelf");
  await mkdir(skillsDir, { recursive: true });
  const builtins = new Map<string, Skill>();
  const fileOf = (name: string) => join(skillsDir, name, "SKILL.md");
  const get = (name: string) => readSkill(fileOf(name)) ?? builtins.get(name);
  return {
    root: base,
    skillsDir,
    stateDir,
    builtins,
    fileOf,
    source: {
      get,
      skills: () => [],
    },
    async add(name, content) {
      const file = fileOf(name);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
