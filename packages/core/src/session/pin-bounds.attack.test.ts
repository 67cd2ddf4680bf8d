/**
 * An active skill's pin is held together with its file as it is now (never more than either).
 * Guards for the edits pinning.test.ts does not make: a file that no longer parses (the last
 * good version keeps bounding the pin, so a narrowing edit is not undone by breaking the file),
 * a file that only disallows, and argument-limited entries (`Bash(git:*)` pinned, the file now
 * `Bash(git log:*)`: only `git log` runs; the file widened to `Bash`: still only `git …`).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";

const skill = (fields: string) =>
  `---\nname: notes-writer\ndescription: Writes meeting notes.\n${fields}---\nWrite.\n`;
const NOTES = skill("allowed-tools: write_file read_file\n");
const GIT = skill("allowed-tools: Bash(git:*)\n");

let root: string;
let shelf: Shelf | undefined;
const file = () => path.join(root, ".skillshelf", "skills", "notes-writer", "SKILL.md");

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-pin-bounds-"));
  await mkdir(path.dirname(file()), { recursive: true });
});
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

async function activeUnder(first: string, tools: string[]) {
  await writeFile(file(), first);
  shelf = await createShelf({ root, userDirs: [], events: false, protectSkillFiles: false });
  const s = shelf;
  const session = s.session({ message: "write the meeting notes", tools });
  expect(session.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} })).toMatchObject({
    status: "success",
  });
  const edit = async (text: string) => {
    await writeFile(file(), text);
    await s.refresh();
  };
  return { session, edit };
}

describe("a pin bounded by the file as it is now", () => {
  it("narrowed, then broken (no frontmatter, bad YAML): the narrowed file still bounds it", async () => {
    const { session, edit } = await activeUnder(NOTES, ["write_file", "read_file", "send_email"]);
    await edit(skill("allowed-tools: read_file\n"));
    expect(session.plan().allowedTools).toEqual(["read_file"]);
    for (const broken of ["just text\n", "---\nname: notes-writer\ndescription: [unclosed\n---\nx\n"]) {
      await edit(broken);
      expect(session.plan().allowedTools).toEqual(["read_file"]);
      expect(session.guard({ name: "write_file", input: { path: "notes.md" } }).allowed).toBe(false);
    }
  });

  it("a file that only disallows narrows the pin", async () => {
    const { session, edit } = await activeUnder(NOTES, ["write_file", "read_file", "send_email"]);
    await edit(skill("disallowed-tools: write_file\n"));
    expect(session.plan().allowedTools).toEqual(["read_file"]);
  });

  it("Bash(git:*) pinned: the file's Bash(git log:*) narrows it, its plain Bash does not widen it", async () => {
    const { session, edit } = await activeUnder(GIT, ["bash", "send_email"]);
    const runs = (command: string) => session.guard({ name: "bash", input: { command } }).allowed;
    await edit(skill("allowed-tools: Bash(git log:*)\n"));
    expect([runs("git log -1"), runs("git status"), runs("ls")]).toEqual([true, false, false]);
    await edit(skill("allowed-tools: Bash\n"));
    expect([runs("git log -1"), runs("git status"), runs("ls")]).toEqual([true, true, false]);
  });
});
