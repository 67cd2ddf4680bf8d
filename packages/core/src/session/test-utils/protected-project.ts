/**
 * The project the write-protection attack tests run against: one project skill
 * (`notes-writer`, active in every call judged), a user skill folder in a temporary home
 * (`$HOME` pointed at it for the test), a `notes/` folder, and — with `links` — the symlinks
 * a cloned repository can carry into the skill folders, one of them dangling.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { createShelf, type Shelf } from "../../shelf.js";

export interface ProtectedProjectOptions {
  /** The user skill folder, under the home: `.agents/skills` (the project has a folder of that name) or one it has not. */
  userDir: string;
  /** Symlinks into the skill folders under `notes/` and the project's root. */
  links: boolean;
  /** The host's tools; `notes-writer` allows all but `send_email`. */
  tools: readonly string[];
}

/** What a model's call to a guarded tool gets when it would write into a skill folder. */
export const refused = { allowed: false, result: { error_type: "SKILL_FILES_PROTECTED" } };

/** Sets the project up before each test and removes it after; returns the calls to judge. */
export function protectedProject(options: ProtectedProjectOptions) {
  const allowed = options.tools.filter((tool) => tool !== "send_email").join(" ");
  const notes = `---
name: notes-writer
description: Writes meeting notes into the notes folder.
allowed-tools: ${allowed}
---
Write the notes to notes/<date>.md.
`;
  let root: string;
  let shelf: Shelf;
  const savedHome = process.env.HOME;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-protect-"));
    const project = path.join(root, "project");
    const home = path.join(root, "home");
    process.env.HOME = home;
    await mkdir(path.join(project, ".agents", "skills", "notes-writer"), { recursive: true });
    await writeFile(path.join(project, ".agents", "skills", "notes-writer", "SKILL.md"), notes);
    await mkdir(path.join(home, options.userDir), { recursive: true });
    await mkdir(path.join(project, "notes"), { recursive: true });
    if (options.links) {
      await writeFile(path.join(project, "notes", "today.md"), "notes\n");
      await symlink(path.join("..", ".agents", "skills"), path.join(project, "notes", "shortcut"));
      await symlink(path.join(home, ".agents"), path.join(project, "home-agents"));
      // A dangling one: writing through it creates a file in a skill's folder.
      await symlink(
        path.join("..", ".agents", "skills", "notes-writer", "scripts.sh"),
        path.join(project, "notes", "helper.sh"),
      );
    }
    shelf = await createShelf({ root: project, userDirs: [path.join(home, options.userDir)], events: false });
  });
  afterEach(async () => {
    await shelf.close();
    process.env.HOME = savedHome;
    await rm(root, { recursive: true, force: true });
  });

  const session = () => {
    const s = shelf.session({ message: "write the meeting notes", tools: [...options.tools] });
    expect(s.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} })).toMatchObject({
      status: "success",
    });
    return s;
  };
  return {
    session,
    bash: (command: string) => session().guard({ name: "bash", input: { command } }),
    write: (file: string, content = "x") =>
      session().guard({ name: "write_file", input: { path: file, content } }),
  };
}
