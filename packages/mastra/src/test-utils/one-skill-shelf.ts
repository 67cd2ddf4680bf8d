/**
 * A temp project whose shelf holds one skill, for the attack tests that need a single
 * whitelist and nothing else: `.agents/skills/<name>/SKILL.md`, no user folders.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";

export interface OneSkillShelf {
  shelf: Shelf;
  /** Closes the shelf and removes the project. */
  close(): Promise<void>;
}

export async function oneSkillShelf(prefix: string, name: string, markdown: string): Promise<OneSkillShelf> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(join(root, ".agents", "skills", name), { recursive: true });
  await writeFile(join(root, ".agents", "skills", name, "SKILL.md"), markdown);
  const shelf = await createShelf({ root, userDirs: [] });
  return {
    shelf,
    close: async () => {
      await shelf.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A skill that may read the git history and run nothing else: `Bash(git log:*)`. */
export const GIT_LOG_SKILL =
  "---\nname: git-log\ndescription: Read the git history.\nallowed-tools: Bash(git log:*)\n---\nRead it.\n";
