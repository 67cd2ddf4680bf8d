import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RefreshResult } from "../shelf.js";
import { createShelf } from "../shelf.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

/**
 * Resolves with the next change the watcher reports (fails the test after `ms`). Generous: a
 * loaded machine can hold the 50 ms debounce and the refresh behind it for seconds, and this
 * waits for the event, it does not time it.
 */
function nextChange(changes: RefreshResult[], ms = 30_000): Promise<RefreshResult> {
  const seen = changes.length;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (changes.length > seen) {
        clearInterval(poll);
        resolve(changes[changes.length - 1]!);
      } else if (Date.now() - started > ms) {
        clearInterval(poll);
        reject(new Error("the watcher reported no change"));
      }
    }, 10);
  });
}

describe("watch mode", () => {
  it("picks up an edit, an added skill, a new category and a deletion without refresh() calls", async () => {
    const root = await tempDir();
    const skills = path.join(root, "skills");
    const file = await writeSkill(skills, "one", skillText("one", "First."));
    const shelf = await createShelf({ root, projectDirs: [skills], userDirs: [], builtinRoles: false });
    const changes: RefreshResult[] = [];
    const stop = shelf.watch((change) => changes.push(change));
    try {
      let change = nextChange(changes);
      await fs.writeFile(file, skillText("one", "Second."));
      expect(await change).toMatchObject({ updated: ["one"] });
      expect(shelf.get("one")?.description).toBe("Second.");

      change = nextChange(changes);
      await writeSkill(skills, "two");
      expect(await change).toMatchObject({ added: ["two"] });

      // A folder created after watch() started is watched too (the watcher follows the tree).
      change = nextChange(changes);
      await writeSkill(skills, "cat/three");
      expect(await change).toMatchObject({ added: ["three"] });
      change = nextChange(changes);
      await fs.writeFile(path.join(skills, "cat/three/SKILL.md"), skillText("three", "Edited."));
      expect(await change).toMatchObject({ updated: ["three"] });

      change = nextChange(changes);
      await fs.rm(path.join(skills, "one"), { recursive: true });
      expect(await change).toMatchObject({ removed: ["one"] });
    } finally {
      stop();
      await shelf.close();
    }
  }, 120_000);

  it("a source folder that does not exist yet is picked up when it is created", async () => {
    const root = await tempDir();
    const skills = path.join(root, "later/skills");
    const shelf = await createShelf({ root, projectDirs: [skills], userDirs: [], builtinRoles: false });
    const changes: RefreshResult[] = [];
    const stop = shelf.watch((change) => changes.push(change));
    try {
      const change = nextChange(changes);
      await writeSkill(skills, "new-one");
      // Creating later/ then later/skills/ then the skill can take a few rounds of re-watching.
      let result = await change;
      while (!shelf.get("new-one")) result = await nextChange(changes);
      expect(result.added).toEqual(["new-one"]);
    } finally {
      stop();
    }
  }, 60_000);

  it("stopping the last watcher stops refreshing", async () => {
    const root = await tempDir();
    const skills = path.join(root, "skills");
    await writeSkill(skills, "one");
    const shelf = await createShelf({ root, projectDirs: [skills], userDirs: [], builtinRoles: false });
    const changes: RefreshResult[] = [];
    shelf.watch((change) => changes.push(change))();
    await writeSkill(skills, "two");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toEqual([]);
    expect(shelf.get("two")).toBeUndefined();
    expect((await shelf.refresh()).added).toEqual(["two"]);
  });
});
