/**
 * Recovery must work exactly when it is needed: when the current SKILL.md does not load.
 * History, diff and rollback answer from the history folder (and the broken file the loader
 * reported), and a managed write never produces a file the loader would refuse.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SKILL_FILE_BYTES } from "../parse/limits.js";
import { createShelf } from "../shelf.js";
import { isSkillWriteError } from "./errors.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { createSkillStore } from "./writer.js";

const NAME = "weekly-update";
const GOOD = `---\nname: ${NAME}\ndescription: Writes the weekly update for the team.\n---\n\n1. Collect what shipped.\n2. Write it up.\n`;
const BROKEN = `---\nname: ${NAME}\ndescription: [unclosed\n---\n\nHalf-finished hand edit.\n`;

let root: string;
const file = () => join(root, ".skillshelf", "skills", NAME, "SKILL.md");
const open = () => createShelf({ root, userDirs: [], events: false, builtinRoles: false });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-recovery-"));
  await mkdir(join(root, ".skillshelf", "skills", NAME), { recursive: true });
  await writeFile(file(), GOOD);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("a SKILL.md that no longer loads", () => {
  it("history, read, diff and rollback still work, from a fresh shelf", async () => {
    const first = await open();
    const written = await first.write(NAME, GOOD.replace("Write it up.", "Write it up for leadership."), {
      expectedHash: first.get(NAME)!.hash,
    });
    await first.close();
    await writeFile(file(), BROKEN); // a broken hand edit

    const shelf = await open();
    try {
      expect(shelf.get(NAME)).toBeUndefined();
      const versions = await shelf.history(NAME);
      expect(versions[0]).toMatchObject({ id: "current", current: true, recorded: false });
      expect(versions.slice(1).map((v) => v.hash)).toEqual([written.hash, written.previousHash]);
      expect(await shelf.read(NAME, "~1")).toBe(written.content);
      expect(await shelf.diff(NAME, "~1")).toContain("+Half-finished hand edit.");

      const back = await shelf.rollback(NAME, "~1");
      expect(await readFile(file(), "utf8")).toBe(back.content);
      expect(back.content).toContain("Write it up for leadership.");
      expect(shelf.get(NAME)?.body).toContain("Write it up for leadership.");
      // The broken edit itself is on record too, and can be compared with.
      const after = await shelf.history(NAME);
      expect(await shelf.read(NAME, after[1]!.id)).toBe(BROKEN);
    } finally {
      await shelf.close();
    }
  });

  it("history works from the history folder alone, even with the file gone", async () => {
    const first = await open();
    await first.write(NAME, GOOD.replace("Write it up.", "Write it up today."), {
      expectedHash: first.get(NAME)!.hash,
    });
    await first.close();
    await rm(file());
    const shelf = await open();
    try {
      const versions = await shelf.history(NAME);
      expect(versions.map((v) => v.version)).toEqual(["0.0.1", undefined]);
      expect(await shelf.diff(NAME, versions[1]!.id, versions[0]!.id)).toContain("+2. Write it up today.");
      const refused = await shelf.rollback(NAME, "~1").catch((e: unknown) => e);
      expect(isSkillWriteError(refused, "NOT_FOUND")).toBe(true);
      expect((refused as Error).message).toMatch(/kept versions are still listed/);
    } finally {
      await shelf.close();
    }
  });
});

describe("write() refuses what the loader would refuse", () => {
  let folder: SkillFolder;
  beforeEach(async () => {
    folder = await makeSkillFolder();
    await folder.add(NAME, GOOD);
  });
  afterEach(() => folder.cleanup());

  it("a file over the loader's size cap", async () => {
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
    const huge = `${GOOD}${"x".repeat(MAX_SKILL_FILE_BYTES)}\n`;
    const error = await store
      .write(NAME, huge, { expectedHash: folder.source.get(NAME)!.hash })
      .catch((e: unknown) => e);
    expect(isSkillWriteError(error, "INVALID")).toBe(true);
    expect((error as Error).message).toMatch(/over 1048576 bytes are not loaded/);
    expect(await readFile(folder.fileOf(NAME), "utf8")).toBe(GOOD);
  });

  it("content the loader's strict mode refuses, when the shelf loads strictly", async () => {
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, mode: "strict" });
    const unknownKey = GOOD.replace("---\n\n", "frobnicate: 1\n---\n\n");
    const error = await store
      .write(NAME, unknownKey, { expectedHash: folder.source.get(NAME)!.hash })
      .catch((e: unknown) => e);
    expect(isSkillWriteError(error, "INVALID")).toBe(true);
  });

  it("content with a NUL byte before the body (the loader refuses it as binary)", async () => {
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
    const error = await store
      .write(NAME, GOOD.replace("weekly update", "weekly\u0000update"), {
        expectedHash: folder.source.get(NAME)!.hash,
      })
      .catch((e: unknown) => e);
    expect(isSkillWriteError(error, "INVALID")).toBe(true);
  });
});
