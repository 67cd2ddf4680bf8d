/**
 * A skill folder replaced by another at the same path (a tool that writes the new version
 * beside it and renames it into place, a branch switch): the watch on the old folder sees
 * nothing of the new one, so a refresh that lists the folder again must watch the new one.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { oneSkillShelf, skillText } from "./test-utils/fixtures.js";

describe.runIf(process.platform === "linux")("a skill folder replaced under the same path", () => {
  it("refresh() sees an edit made in the new folder", async () => {
    const { shelf, skills } = await oneSkillShelf("First.");
    try {
      await shelf.refresh();
      await shelf.refresh(); // from here on a watcher vouches for "nothing changed"
      // The new version written beside it and renamed into place, in one turn.
      const one = path.join(skills, "one");
      fs.mkdirSync(path.join(skills, ".one.new"));
      fs.writeFileSync(path.join(skills, ".one.new/SKILL.md"), skillText("one", "Second."));
      fs.renameSync(one, path.join(skills, ".one.old"));
      fs.renameSync(path.join(skills, ".one.new"), one);
      fs.rmSync(path.join(skills, ".one.old"), { recursive: true });
      expect((await shelf.refresh()).updated).toEqual(["one"]);
      expect(shelf.get("one")?.description).toBe("Second.");
      await shelf.refresh(); // whatever events of the swap are still on their way
      fs.writeFileSync(path.join(one, "SKILL.md"), skillText("one", "Third, in the new folder."));
      expect((await shelf.refresh()).updated).toEqual(["one"]);
      expect(shelf.get("one")?.description).toBe("Third, in the new folder.");
    } finally {
      await shelf.close();
    }
  });

  it("refresh() sees an edit made in a folder removed and made again at once (its inode number may be reused)", async () => {
    const { shelf, skills } = await oneSkillShelf("First.");
    try {
      await shelf.refresh();
      await shelf.refresh();
      const one = path.join(skills, "one");
      for (let round = 0; round < 5; round++) {
        fs.rmSync(one, { recursive: true });
        fs.mkdirSync(one);
        fs.writeFileSync(path.join(one, "SKILL.md"), skillText("one", `Round ${round}.`));
        expect((await shelf.refresh()).updated).toEqual(["one"]);
        await shelf.refresh();
        fs.writeFileSync(path.join(one, "SKILL.md"), skillText("one", `Round ${round}, edited.`));
        expect((await shelf.refresh()).updated, `round ${round}`).toEqual(["one"]);
        expect(shelf.get("one")?.description).toBe(`Round ${round}, edited.`);
      }
    } finally {
      await shelf.close();
    }
  });
});

describe.runIf(process.platform === "linux")("a folder holding an entry of its own name", () => {
  it("refresh() still sees every edit after that entry is renamed (the folder's watch is kept)", async () => {
    const { shelf, skills, file } = await oneSkillShelf("First.");
    try {
      await shelf.refresh();
      await shelf.refresh();
      // "one/one" renamed: inotify reports it as a rename of "one", as it does the folder's own move.
      fs.writeFileSync(path.join(skills, "one/one"), "notes");
      fs.renameSync(path.join(skills, "one/one"), path.join(skills, "one/one.txt"));
      fs.renameSync(path.join(skills, "one/one.txt"), path.join(skills, "one/one"));
      await shelf.refresh();
      await shelf.refresh();
      for (let i = 0; i < 5; i++) {
        fs.writeFileSync(file, skillText("one", `Edit ${i}.`));
        expect((await shelf.refresh()).updated).toEqual(["one"]);
      }
    } finally {
      await shelf.close();
    }
  });
});
