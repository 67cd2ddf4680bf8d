import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import { tempDir, writeSkill } from "./test-utils/fixtures.js";

describe("the prebuilt shelf's file", () => {
  it.skipIf(process.platform === "win32")(
    "a FIFO where the prebuilt shelf goes is not used, and the start does not wait on it",
    async () => {
      const root = await tempDir("skillshelf-prebuilt-fifo-");
      const skills = path.join(root, ".skillshelf/skills");
      await writeSkill(skills, "notes");
      execFileSync("mkfifo", [path.join(root, ".skillshelf/prebuilt-shelf.bin")]);
      const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
      expect(shelf.skills().map((s) => s.name)).toEqual(["notes"]);
      const unusable = shelf.diagnostics().filter((d) => d.code === "prebuilt-unusable");
      expect(unusable.map((d) => d.message)).toEqual([expect.stringMatching(/not a regular file/u)]);
      await shelf.close();
    },
  );

  it("a folder where the prebuilt shelf goes is not used", async () => {
    const root = await tempDir("skillshelf-prebuilt-dir-");
    const skills = path.join(root, ".skillshelf/skills");
    await writeSkill(skills, "notes");
    await fs.mkdir(path.join(root, ".skillshelf/prebuilt-shelf.bin"));
    const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
    expect(shelf.skills().map((s) => s.name)).toEqual(["notes"]);
    expect(shelf.diagnostics().map((d) => d.code)).toContain("prebuilt-unusable");
    await shelf.close();
  });
});
