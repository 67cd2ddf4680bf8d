import { EventEmitter } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import { SLICE_STATS } from "./background-walk.js";
import { FULL_CHECK_INTERVAL_MS, IDLE_AFTER_MS, STALE_AFTER_MS } from "./change-monitor.js";
import { ExpectedStates } from "./expected-states.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

/**
 * The watcher's safety net off the request path. The clock (performance.now) and the
 * monitor's timer are fake, because what is tested is what happens as time passes; the stats
 * and the files are real. "A deaf watcher" stands for what inotify cannot see (another
 * machine writing to a network file system, a dropped event queue): fs.watch gives watchers
 * that never report anything.
 */
const onLinux = process.platform === "linux";
const shelves: Shelf[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const shelf of shelves.splice(0)) await shelf.close();
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function shelfWith(count: number) {
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
  });
  shelves.push(shelf);
  return { shelf, files, dir };
}

/** The clock stands still unless a test moves it. */
function fakeClock() {
  // Whole milliseconds: sums of them compare exactly.
  let now = Math.round(performance.now());
  vi.spyOn(performance, "now").mockImplementation(() => now);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  return {
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Watchers that never report: every edit from here on is one the watcher missed. */
function deafWatchers() {
  vi.spyOn(fs, "watch").mockImplementation(() => {
    const watcher = new EventEmitter() as fs.FSWatcher;
    watcher.close = () => undefined;
    watcher.ref = () => watcher;
    watcher.unref = () => watcher;
    return watcher;
  });
}

/** Fires the background walk's timer and waits until that walk is over (it schedules the next). */
async function runBackgroundWalk(clock: { advance(ms: number): void }) {
  clock.advance(FULL_CHECK_INTERVAL_MS);
  await vi.advanceTimersByTimeAsync(FULL_CHECK_INTERVAL_MS);
  for (let i = 0; vi.getTimerCount() === 0; i++) {
    if (i > 100_000) throw new Error("the background walk never ended");
    await nextTurn();
  }
}

describe.runIf(onLinux)("the safety-net walk, off the request path", () => {
  it("refresh() stats nothing on the request path however long the shelf runs, while the background walks do", async () => {
    const { shelf } = await shelfWith(20);
    const clock = fakeClock();
    await shelf.refresh();
    await shelf.refresh(); // starts watching, and the background walks
    const statSync = vi.spyOn(fs, "statSync");
    let onRequestPath = 0;
    for (let round = 0; round < 5; round++) {
      await runBackgroundWalk(clock);
      // 2 s (and more) after the last walk of its own: the old refresh() walked here.
      const before = statSync.mock.calls.length;
      expect((await shelf.refresh()).changed).toBe(false);
      onRequestPath += statSync.mock.calls.length - before;
    }
    expect(onRequestPath).toBe(0);
    // Each background walk stats the 20 skill files, their 20 schema.json and the folder.
    expect(statSync.mock.calls.length).toBe(5 * 41);
  });

  it("an edit, a new skill, a new category and a deletion the watcher missed: the background walk finds each, the next refresh() serves it", async () => {
    const { shelf, files, dir } = await shelfWith(5);
    deafWatchers();
    const clock = fakeClock();
    await shelf.refresh();
    await shelf.refresh();
    const steps: Array<[() => void, (result: Awaited<ReturnType<Shelf["refresh"]>>) => void]> = [
      [
        () => fs.writeFileSync(files[2]!, skillText("skill-2", "Edited where nobody watched.")),
        (result) => expect(result.updated).toEqual(["skill-2"]),
      ],
      [
        () => {
          fs.mkdirSync(path.join(dir, "added"));
          fs.writeFileSync(path.join(dir, "added", "SKILL.md"), skillText("added"));
        },
        (result) => expect(result.added).toEqual(["added"]),
      ],
      [
        () => {
          fs.mkdirSync(path.join(dir, "cat/inside"), { recursive: true });
          fs.writeFileSync(path.join(dir, "cat/inside/SKILL.md"), skillText("inside"));
        },
        (result) => expect(result.added).toEqual(["inside"]),
      ],
      [
        () =>
          fs.writeFileSync(
            path.join(dir, "cat/inside/SKILL.md"),
            skillText("inside", "Edited in the new category."),
          ),
        (result) => expect(result.updated).toEqual(["inside"]),
      ],
      [
        () => fs.rmSync(path.join(dir, "skill-0"), { recursive: true }),
        (result) => expect(result.removed).toEqual(["skill-0"]),
      ],
    ];
    for (const [change, check] of steps) {
      change();
      // Before a walk has run, the deaf watcher vouches for "nothing moved" (within the bound).
      expect((await shelf.refresh()).changed).toBe(false);
      await runBackgroundWalk(clock);
      check(await shelf.refresh());
      expect((await shelf.refresh()).changed).toBe(false);
    }
    expect(shelf.get("skill-2")?.description).toBe("Edited where nobody watched.");
    expect(shelf.get("inside")?.description).toBe("Edited in the new category.");
  });

  it(`the bound: with no background walk completed (a busy thread pool), a refresh() ${STALE_AFTER_MS} ms after a missed edit walks itself and sees it`, async () => {
    const { shelf, files } = await shelfWith(3);
    deafWatchers();
    const clock = fakeClock();
    await shelf.refresh();
    await shelf.refresh();
    fs.writeFileSync(files[0]!, skillText("skill-0", "Missed."));
    clock.advance(STALE_AFTER_MS - 1);
    expect((await shelf.refresh()).changed).toBe(false);
    clock.advance(1);
    const r = await shelf.refresh();
    expect(r.updated).toEqual(["skill-0"]);
  });

  it("an idle shelf stops walking; the first refresh() after it walks on the request path and starts the walks again", async () => {
    const { shelf, files } = await shelfWith(3);
    deafWatchers();
    const clock = fakeClock();
    await shelf.refresh();
    await shelf.refresh();
    const holds = vi.spyOn(ExpectedStates.prototype, "holds");
    clock.advance(IDLE_AFTER_MS);
    await vi.advanceTimersByTimeAsync(FULL_CHECK_INTERVAL_MS);
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(holds).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
    fs.writeFileSync(files[1]!, skillText("skill-1", "Edited while idle."));
    expect((await shelf.refresh()).updated).toEqual(["skill-1"]);
    expect(vi.getTimerCount()).toBe(1);
    await runBackgroundWalk(clock);
    expect(holds).toHaveBeenCalled();
  });

  /** Runs `during` right after the background walk's first stat, then waits until that walk is over. */
  async function interruptBackgroundWalk(clock: { advance(ms: number): void }, during: () => void) {
    const original = ExpectedStates.prototype.holds;
    const holds = vi.spyOn(ExpectedStates.prototype, "holds");
    let first = true;
    holds.mockImplementation(function (this: ExpectedStates, at, st) {
      if (first) {
        first = false;
        during();
      }
      return original.call(this, at, st);
    });
    clock.advance(FULL_CHECK_INTERVAL_MS);
    await vi.advanceTimersByTimeAsync(FULL_CHECK_INTERVAL_MS);
    for (let i = 0; holds.mock.calls.length === 0 || i < 200; i++) {
      if (i > 100_000) throw new Error("the background walk never started");
      await nextTurn();
    }
    return holds;
  }

  it("a request-path walk during a background walk stops it, and its half result is not taken as proof", async () => {
    const { shelf, files } = await shelfWith(200);
    deafWatchers();
    const clock = fakeClock();
    await shelf.refresh();
    await shelf.refresh();
    let full: Promise<unknown> | undefined;
    const holds = await interruptBackgroundWalk(clock, () => {
      full = shelf.refresh({ full: true });
    });
    await full;
    for (let i = 0; vi.getTimerCount() === 0; i++) {
      if (i > 100_000) throw new Error("the background walk never ended");
      await nextTurn();
    }
    // Stopped at the end of its first slice: not all of the 200 skill files, 200 schema files and the folder.
    expect(holds.mock.calls.length).toBeLessThanOrEqual(SLICE_STATS);
    holds.mockRestore();
    // A missed edit made now is not vouched for by the stopped walk: the next complete one finds it.
    fs.writeFileSync(files[7]!, skillText("skill-7", "After the stop."));
    expect((await shelf.refresh()).changed).toBe(false);
    await runBackgroundWalk(clock);
    expect((await shelf.refresh()).updated).toEqual(["skill-7"]);
  });

  it("a shelf closed mid-walk stops walking and schedules nothing", async () => {
    const { shelf } = await shelfWith(200);
    const clock = fakeClock();
    await shelf.refresh();
    await shelf.refresh();
    let closing: Promise<void> | undefined;
    const holds = await interruptBackgroundWalk(clock, () => {
      closing = shelf.close();
    });
    await closing;
    const after = holds.mock.calls.length;
    expect(after).toBeLessThanOrEqual(SLICE_STATS);
    for (let i = 0; i < 200; i++) await nextTurn();
    expect(holds.mock.calls.length).toBe(after);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a process that refreshes once starts no watcher and no timer", async () => {
    const { shelf } = await shelfWith(3);
    fakeClock();
    const watch = vi.spyOn(fs, "watch");
    await shelf.refresh();
    expect(watch).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe.runIf(onLinux)("refresh() while a request-path walk is under way", () => {
  it("a call that finds nothing moved waits for the walk that is reading the edits", async () => {
    const { shelf, files } = await shelfWith(300);
    await shelf.refresh();
    await shelf.refresh(); // watching
    for (const [i, file] of files.entries())
      fs.writeFileSync(file, skillText(`skill-${i}`, "Second version."));
    for (let i = 0; i < 5; i++) await nextTurn(); // the watcher has the events
    const first = shelf.refresh({ full: true }); // walks and reads 300 files
    const second = shelf.refresh(); // the watcher saw nothing since: it must still not answer early
    await second;
    for (let i = 0; i < files.length; i++)
      expect(shelf.get(`skill-${i}`)?.description).toBe("Second version.");
    expect((await first).updated.length).toBe(300);
  });
});
