import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillWriteError } from "./errors.js";
import { isProcessAlive, lockPathFor, removeDeadLockScratch, withFileLock } from "./lock.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillshelf-lock-"));
  file = join(dir, "SKILL.md");
  await writeFile(file, "x");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function pidns(): string | undefined {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
}

/** A pid that certainly belonged to a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  const pid = Number(child.stdout.toString());
  expect(isProcessAlive(pid)).toBe(false);
  return pid;
}

async function plantLock(owner: object | undefined, mtime = new Date()) {
  const lock = lockPathFor(file);
  await mkdir(lock);
  if (owner) await writeFile(join(lock, "owner.json"), JSON.stringify(owner));
  await utimes(lock, mtime, mtime);
  return lock;
}

describe("withFileLock", () => {
  it("serialises writers and removes the lock folder afterwards", async () => {
    let inside = 0;
    let overlap = false;
    const task = async () => {
      inside++;
      if (inside > 1) overlap = true;
      await new Promise((r) => setTimeout(r, 5));
      inside--;
    };
    await Promise.all(Array.from({ length: 5 }, () => withFileLock(file, task)));
    expect(overlap).toBe(false);
    expect(readdirSync(dir)).toEqual(["SKILL.md"]);
  });

  it("releases the lock when the task throws", async () => {
    await expect(withFileLock(file, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(existsSync(lockPathFor(file))).toBe(false);
    await withFileLock(file, async () => {});
  });

  it("takes over at once a lock whose owner process is dead (no stale wait)", async () => {
    await plantLock({ pid: deadPid(), host: hostname(), pidns: pidns(), nonce: "dead" });
    // With the default 10 s stale rule alone this would fail after 1 s with LOCKED.
    await withFileLock(file, async () => {}, { wait: 1_000 });
    expect(readdirSync(dir)).toEqual(["SKILL.md"]);
  });

  describe("with a live owner", () => {
    let sleeper: ChildProcess;
    beforeEach(() => {
      sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    });
    afterEach(() => {
      sleeper.kill("SIGKILL");
    });

    it("waits, then fails with LOCKED and a clear message", async () => {
      await plantLock({ pid: sleeper.pid, host: hostname(), pidns: pidns(), nonce: "alive" });
      const error = await withFileLock(file, async () => {}, { wait: 200 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SkillWriteError);
      expect((error as SkillWriteError).code).toBe("LOCKED");
      expect((error as SkillWriteError).message).toMatch(/another writer has held the lock/);
      expect(existsSync(lockPathFor(file))).toBe(true); // not ours to remove
    });

    it("does not judge an owner on another host by its pid; the stale timeout decides", async () => {
      // stale: 30 s, not proper-lockfile's 2 s minimum: a loaded machine can stall this test for
      // 2 s between planting the fresh lock and the first attempt, which would find it stale.
      const lock = await plantLock({ pid: deadPid(), host: "some-other-host", nonce: "remote" });
      await expect(withFileLock(file, async () => {}, { wait: 200, stale: 30_000 })).rejects.toMatchObject({
        code: "LOCKED",
      });
      const old = new Date(Date.now() - 60_000);
      await utimes(lock, old, old);
      await withFileLock(file, async () => {}, { wait: 1_000, stale: 30_000 });
    });
  });

  it("takes over a lock without an owner record once it is stale by mtime", async () => {
    await plantLock(undefined, new Date(Date.now() - 60_000));
    await withFileLock(file, async () => {}, { wait: 1_000, stale: 2_000 });
    expect(readdirSync(dir)).toEqual(["SKILL.md"]);
  });
});

describe("removeDeadLockScratch", () => {
  it("removes scratch folders of dead lock attempts only", async () => {
    const lock = lockPathFor(file);
    const dead = `${lock}.${deadPid()}.0123abcd.tmp`;
    const live = `${lock}.${process.pid}.89abcdef.tmp`;
    await mkdir(dead);
    await mkdir(live);
    removeDeadLockScratch(file);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
