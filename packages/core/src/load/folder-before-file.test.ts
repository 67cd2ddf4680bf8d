/**
 * A skill folder made before its SKILL.md (mkdir, then an editor saves the file): the
 * refresh that sees the empty folder must start watching it, or the file written next is
 * missed until the periodic full walk (refresh) or for ever (watch()).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { RefreshResult } from "../shelf.js";
import { oneSkillShelf, skillText } from "./test-utils/fixtures.js";

describe("a skill folder made before its SKILL.md", () => {
  it("refresh() sees the file written after a refresh saw the empty folder", async () => {
    const { shelf, skills } = await oneSkillShelf();
    await shelf.refresh();
    await shelf.refresh(); // from here on a watcher vouches for "nothing changed"
    await fs.mkdir(path.join(skills, "later"));
    expect((await shelf.refresh()).added).toEqual([]);
    await fs.writeFile(path.join(skills, "later/SKILL.md"), skillText("later"));
    expect((await shelf.refresh()).added).toEqual(["later"]);
    await shelf.close();
  });

  it("watch() reports the file written after the watcher saw the empty folder", async () => {
    const { shelf, skills } = await oneSkillShelf();
    const changes: RefreshResult[] = [];
    const stop = shelf.watch((change) => changes.push(change));
    await fs.mkdir(path.join(skills, "later"));
    // Time for the watcher's own refresh to see the empty folder. On a slow machine that
    // refresh may come after the write instead, and then sees both: the wait can only make
    // this test miss the bug, never fail without it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await fs.writeFile(path.join(skills, "later/SKILL.md"), skillText("later"));
    await vi.waitFor(() => expect(changes.flatMap((c) => c.added)).toContain("later"), {
      timeout: 30_000,
      interval: 50,
    });
    stop();
    await shelf.close();
  }, 90_000);
});
