import fs from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import { ChangeMonitor } from "./change-monitor.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const onLinux = process.platform === "linux";
const shelves: Shelf[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const shelf of shelves.splice(0)) await shelf.close();
});

async function shelfWith(count: number, refreshCheck?: "watch" | "stat") {
  const root = await tempDir();
  const dir = path.join(root, "skills");
  const files: string[] = [];
  for (let i = 0; i < count; i++) files.push(await writeSkill(dir, `skill-${i}`, skillText(`skill-${i}`)));
  const shelf = await createShelf({
    root,
    projectDirs: [dir],
    userDirs: [],
    builtinRoles: false,
    events: false,
    refreshCheck,
  });
  shelves.push(shelf);
  return { shelf, files, dir };
}

describe.runIf(onLinux)("refresh() with the default watcher", () => {
  it("sees every edit made right before the call, by sync or async writes, new and deleted skills too", async () => {
    const { shelf, files, dir } = await shelfWith(5);
    await shelf.refresh();
    await shelf.refresh(); // starts watching
    for (let i = 0; i < 40; i++) {
      const file = files[i % files.length]!;
      const description = `Edit ${i}.`;
      if (i % 2) fs.writeFileSync(file, skillText(path.basename(path.dirname(file)), description));
      else await writeFile(file, skillText(path.basename(path.dirname(file)), description));
      const result = await shelf.refresh();
      expect(result.updated).toEqual([path.basename(path.dirname(file))]);
      expect(shelf.get(path.basename(path.dirname(file)))?.description).toBe(description);
    }
    await writeSkill(dir, "added", skillText("added"));
    expect((await shelf.refresh()).added).toEqual(["added"]);
    fs.rmSync(path.join(dir, "added"), { recursive: true });
    expect((await shelf.refresh()).removed).toEqual(["added"]);
  });

  it("a skills folder deleted and made again: each time, the next call sees it", async () => {
    const { shelf, dir } = await shelfWith(2);
    await shelf.refresh();
    await shelf.refresh(); // starts watching
    for (let round = 0; round < 3; round++) {
      fs.rmSync(dir, { recursive: true });
      expect((await shelf.refresh()).removed.sort()).toEqual(["skill-0", "skill-1"]);
      fs.mkdirSync(dir);
      await writeSkill(dir, "skill-0", skillText("skill-0"));
      expect((await shelf.refresh()).added).toEqual(["skill-0"]);
      await writeSkill(dir, "skill-1", skillText("skill-1"));
      expect((await shelf.refresh()).added).toEqual(["skill-1"]);
    }
  });

  it("a skill file linked to a file in an unwatched folder: its target's edits are seen at once", async () => {
    const { shelf, dir } = await shelfWith(2);
    const target = path.join(dir, "store/deep/down/linked.md");
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, skillText("linked", "Linked v1."));
    fs.mkdirSync(path.join(dir, "linked"));
    fs.symlinkSync(target, path.join(dir, "linked", "SKILL.md"));
    expect((await shelf.refresh()).added).toEqual(["linked"]);
    for (let i = 2; i < 6; i++) {
      fs.writeFileSync(target, skillText("linked", `Linked v${i}.`));
      await shelf.refresh();
      expect(shelf.get("linked")?.description).toBe(`Linked v${i}.`);
    }
  });

  it("stats nothing when nothing changed; { full: true } stats every file", async () => {
    const { shelf } = await shelfWith(20);
    // The clock stands still: refresh() walks itself when no walk completed in STALE_AFTER_MS
    // (4 s), and a loaded machine can take that long between two of these calls.
    const now = performance.now();
    vi.spyOn(performance, "now").mockReturnValue(now);
    // And the background walk (sync stats too) never fires in between.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await shelf.refresh();
    await shelf.refresh();
    const stat = vi.spyOn(fs, "statSync");
    expect((await shelf.refresh()).changed).toBe(false);
    expect(stat).not.toHaveBeenCalled();
    expect((await shelf.refresh({ full: true })).changed).toBe(false);
    expect(stat.mock.calls.length).toBeGreaterThanOrEqual(20);
  });

  it("a request-path walk that failed vouches for nothing: the next call walks again", async () => {
    // The monitor itself (the loader's walks catch what a file system throws, so a shelf
    // cannot be made to fail one from outside): checking() then failed(), as shelf.ts does
    // when its walk rejects.
    const root = await tempDir();
    const now = performance.now();
    vi.spyOn(performance, "now").mockReturnValue(now);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const monitor = new ChangeMonitor({
      folders: () => [root],
      expected: async (into) => into,
      enabled: true,
    });
    try {
      expect(await monitor.mustCheck()).toBe(true); // the first call: no watches yet
      expect(await monitor.mustCheck()).toBe(true); // starts watching
      monitor.checking();
      expect(await monitor.mustCheck()).toBe(false); // a walk completed, nothing moved
      monitor.checking();
      monitor.failed();
      expect(await monitor.mustCheck()).toBe(true);
      monitor.checking();
      expect(await monitor.mustCheck()).toBe(false);
    } finally {
      monitor.close();
    }
  });
});

describe('refreshCheck: "stat"', () => {
  it("stats every file on every call", async () => {
    const { shelf } = await shelfWith(20, "stat");
    await shelf.refresh();
    const stat = vi.spyOn(fs, "statSync");
    expect((await shelf.refresh()).changed).toBe(false);
    expect(stat.mock.calls.length).toBeGreaterThanOrEqual(20);
  });
});
