/**
 * Fault test 1: a writer process killed with SIGKILL at random points, many times over.
 * After every kill: the skill file is exactly one complete version (never torn, never
 * older than a write the writer reported done), the kept versions are complete and
 * consecutive (no version lost, no partial entry visible), the ledger parses, and the
 * next writer takes over the dead writer's lock at once.
 *
 * SKILLSHELF_FAULT_KILLS sets the number of kills (default 200, across 2 lanes that run
 * side by side, each on its own project folder). Each writer is started (and warmed up)
 * while the previous one runs, and told to start writing just before the kill window.
 *
 * The kill window follows the machine: a fixed one (60 ms) landed every kill before the
 * first write returned on a loaded CI machine, so nothing mid-write was tested. Each lane
 * widens its window after a kill that came before any write returned and narrows it after
 * one that came after several, so kills keep landing inside writes at any speed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSkill } from "../parse/parse-skill.js";
import { isTempFileName } from "./atomic-write.js";
import { sha256, shortHash } from "./hash.js";
import { createLedger } from "./ledger.js";
import { lockPathFor } from "./lock.js";
import { FAULT_SKILL, faultSkillVersion, iterationOf, nextFaultContent } from "./test-utils/fault-skill.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { disposeWriterBuild, spawnWriter } from "./test-utils/spawn-writer.js";
import { createSkillStore } from "./writer.js";

const KILLS = Number(process.env.SKILLSHELF_FAULT_KILLS ?? 200);
const LANES = 2;
const KEEP = 4;
/** The kill window, in ms: where it starts, and how far it may move. */
const WINDOW = { start: 60, min: 10, max: 5_000 };

/** The next lane's window after a kill that let `writes` writes return. */
function nextKillWindow(window: number, writes: number): number {
  if (writes === 0) return Math.min(WINDOW.max, window * 1.5);
  if (writes > 3) return Math.max(WINDOW.min, window / 1.5);
  return window;
}

interface Stats {
  kills: number;
  writesAcknowledged: number;
  staleLocksLeft: number;
  staleLocksRecovered: number;
  tempFilesLeft: number;
  newestNotYetRecorded: number;
  killedBeforeAnyWriteReturned: number;
}

const total: Stats = {
  kills: 0,
  writesAcknowledged: 0,
  staleLocksLeft: 0,
  staleLocksRecovered: 0,
  tempFilesLeft: 0,
  newestNotYetRecorded: 0,
  killedBeforeAnyWriteReturned: 0,
};
const folders: SkillFolder[] = [];
afterAll(async () => {
  await Promise.all(folders.map((f) => f.cleanup()));
  await disposeWriterBuild();
  console.info(`SIGKILL fault test: ${JSON.stringify(total)}`);
  // Removing the folders and the writer build waits on a loaded disk: more than the 10 s default.
}, 120_000);

const ENTRY = /^.+_([0-9a-f]{8})\.md$/;

/** Checks every invariant; returns what the kill left behind. */
async function inspect(folder: SkillFolder, acknowledged: number) {
  const file = folder.fileOf(FAULT_SKILL);
  const text = readFileSync(file, "utf8");
  const iteration = iterationOf(text);
  expect(iteration, "the file must be a complete version").toBeDefined();
  expect(text, "the file must be exactly one complete version").toBe(faultSkillVersion(iteration!));
  expect(parseSkill(text, { path: file }).skill?.version).toBe(
    iteration === 0 ? undefined : `0.0.${iteration}`,
  );
  expect(iteration!, "a write the writer reported done must never be lost").toBeGreaterThanOrEqual(
    acknowledged,
  );

  const historyDir = join(folder.stateDir, "history", FAULT_SKILL);
  const names = existsSync(historyDir) ? readdirSync(historyDir) : [];
  const entries = names
    .filter((n) => !n.startsWith("."))
    .sort()
    .reverse();
  const kept = entries.map((name) => {
    const content = readFileSync(join(historyDir, name), "utf8");
    const match = ENTRY.exec(name);
    expect(match, `unexpected file in history: ${name}`).not.toBeNull();
    expect(shortHash(sha256(content)), `entry ${name} must be complete`).toBe(match![1]);
    const k = iterationOf(content)!;
    expect(content).toBe(faultSkillVersion(k));
    return k;
  });
  if (iteration! > 0) {
    // Newest entry: the current file, or the one before it when the kill came between the
    // rename and recording the new version (the next write records it).
    expect([iteration, iteration! - 1]).toContain(kept[0]);
    expect(kept, "kept versions must be consecutive").toEqual(kept.map((_, i) => kept[0]! - i));
    expect(kept.length).toBeLessThanOrEqual(KEEP + 2);
  }

  const ledger = await createLedger(join(folder.stateDir, "ledger.jsonl")).read();
  expect(ledger.malformedLines).toEqual([]);

  const temps = [
    ...readdirSync(join(folder.skillsDir, FAULT_SKILL)).filter((n) => isTempFileName(n, "SKILL.md")),
    ...names.filter((n) => isTempFileName(n)),
  ];
  return {
    iteration: iteration!,
    staleLock: existsSync(lockPathFor(file)),
    temps: temps.length,
    lagging: iteration! > 0 && kept[0] === iteration! - 1,
  };
}

async function lane(kills: number): Promise<void> {
  const folder = await makeSkillFolder();
  folders.push(folder);
  await folder.add(FAULT_SKILL, faultSkillVersion(0));
  let acknowledged = 0;
  let staleLockBefore = false;
  let window = WINDOW.start;
  let missesAtWidest = 0; // kills in a row at the widest window with no write returned

  let next = await spawnWriter("loop", folder.root, KEEP);
  for (let i = 0; i < kills; i++) {
    const writer = next;
    expect(await writer.nextLine()).toBe("ready");
    writer.child.stdin!.write("go\n");
    if (i + 1 < kills) next = await spawnWriter("loop", folder.root, KEEP);
    await new Promise((r) => setTimeout(r, Math.random() * window));
    writer.child.kill("SIGKILL");
    const { signal } = await writer.exited;
    expect(signal).toBe("SIGKILL");

    const wrote = writer.lines.filter((l) => l.startsWith("wrote "));
    missesAtWidest = wrote.length > 0 ? 0 : window >= WINDOW.max ? missesAtWidest + 1 : 0;
    expect(
      missesAtWidest,
      `no write returned within ${WINDOW.max} ms, 3 kills in a row: the writer writes nothing`,
    ).toBeLessThan(3);
    window = nextKillWindow(window, wrote.length);
    if (wrote.length === 0) total.killedBeforeAnyWriteReturned++;
    else if (staleLockBefore) total.staleLocksRecovered++;
    for (const line of wrote) acknowledged = Math.max(acknowledged, Number(line.split(".").pop()));
    total.writesAcknowledged += wrote.length;

    const state = await inspect(folder, acknowledged);
    total.kills++;
    if (state.staleLock) total.staleLocksLeft++;
    if (state.temps > 0) total.tempFilesLeft++;
    if (state.lagging) total.newestNotYetRecorded++;
    staleLockBefore = state.staleLock;
  }

  // A last, in-process write cleans up after the final kill: lock, temp files, the record.
  const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, keep: KEEP });
  const file = folder.fileOf(FAULT_SKILL);
  const current = readFileSync(file);
  const result = await store.write(FAULT_SKILL, nextFaultContent(current.toString("utf8")), {
    expectedHash: sha256(current),
  });
  const final = await inspect(folder, iterationOf(result.content)!);
  expect(final).toMatchObject({ staleLock: false, temps: 0, lagging: false });
  const versions = await store.versions(FAULT_SKILL);
  expect(versions).toHaveLength(Math.min(KEEP + 1, iterationOf(result.content)! + 1));
  expect(versions.every((v) => v.intact && v.recorded)).toBe(true);
}

describe("SIGKILL at random points during managed writes", () => {
  it(`leaves a complete file and a consistent history after each of ${KILLS} kills`, async () => {
    await Promise.all(
      Array.from({ length: LANES }, (_, i) => lane(Math.floor(KILLS / LANES) + (i < KILLS % LANES ? 1 : 0))),
    );
    expect(total.kills).toBe(KILLS);
    // The kills must have landed while writing, not only between runs.
    expect(total.writesAcknowledged).toBeGreaterThan(0);
    expect(total.staleLocksLeft).toBeGreaterThan(0);
  }, 600_000);
});
