// Test helpers for load/: real folders in a temp dir. Not exported from the package.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { createShelf, type Shelf } from "../../shelf.js";

const created: string[] = [];

/** A new temp folder, removed when the test file is done (a day of runs left hundreds behind). */
export async function tempDir(prefix = "skillshelf-load-"): Promise<string> {
  // realpath: macOS's /var → /private/var would otherwise make every path assertion flaky.
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

// Registered on the file that imports these helpers (imports run while vitest collects it).
afterAll(async () => {
  await Promise.all(created.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

export function skillText(name: string, description = `Does ${name} things.`, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nSteps for ${name}.\n`;
}

/** Writes `<dir>/<folder>/<fileName>` (folder may contain a category: `cat/name`). Returns the file path. */
export async function writeSkill(
  dir: string,
  folder: string,
  text = skillText(path.basename(folder)),
  fileName = "SKILL.md",
): Promise<string> {
  const file = path.join(dir, folder, fileName);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

/** Folder mtimes have 1 ms-or-better resolution here, but make "later" unambiguous. */
export function tick(ms = 15): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A shelf over `<temp>/skills` holding one skill, `one` (nothing else: no user folders, no
 * builtin roles, no event log), for tests of what refresh() and watch() see on disk.
 */
export async function oneSkillShelf(
  description?: string,
): Promise<{ shelf: Shelf; skills: string; file: string }> {
  const root = await tempDir();
  const skills = path.join(root, "skills");
  const file = await writeSkill(skills, "one", skillText("one", description));
  const shelf = await createShelf({
    root,
    projectDirs: [skills],
    userDirs: [],
    builtinRoles: false,
    events: false,
  });
  return { shelf, skills, file };
}
