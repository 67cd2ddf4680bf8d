/**
 * A short synchronous lock across processes, for the usage file's read-merge-write (the
 * usage store is synchronous: it runs inside a host's turn and must not reorder with it).
 * `mkdir` is atomic: whoever creates `<file>.lock` holds it. A holder writes its pid inside;
 * a lock whose holder is gone (same host) or that is older than `stale` is taken over by
 * renaming it away first, so two waiters can never both remove it.
 */
import fs from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

export interface SyncLockOptions {
  /** Give up after this long (ms, default 2 000): the caller then reports and carries on. */
  wait?: number;
  /** A lock older than this is abandoned (ms, default 10 000); a merge takes milliseconds. */
  stale?: number;
}

const OWNER = "owner";
const host = hostname();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function abandoned(lock: string, stale: number): boolean {
  try {
    const [pid, owner] = fs.readFileSync(path.join(lock, OWNER), "utf8").split("@");
    if (owner === host && pid !== String(process.pid) && !alive(Number(pid))) return true;
  } catch {
    // no owner record yet (being created) or unreadable: the age decides
  }
  try {
    return Date.now() - fs.statSync(lock).mtimeMs > stale;
  } catch {
    return false;
  }
}

/** Runs `task` holding the lock on `file`; returns undefined (task not run) if it timed out. */
export function withSyncLock<T>(
  file: string,
  task: () => T,
  options: SyncLockOptions = {},
): { value: T } | undefined {
  const lock = `${file}.lock`;
  const deadline = Date.now() + (options.wait ?? 2_000);
  const stale = options.stale ?? 10_000;
  let delay = 1;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (abandoned(lock, stale)) {
      const tomb = `${lock}.${process.pid}.${Math.random().toString(16).slice(2, 10)}.tmp`;
      try {
        fs.renameSync(lock, tomb);
        fs.rmSync(tomb, { recursive: true, force: true });
      } catch {
        // someone else took it over first
      }
      continue;
    }
    if (Date.now() >= deadline) return undefined;
    sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 2, 20);
  }
  try {
    fs.writeFileSync(path.join(lock, OWNER), `${process.pid}@${host}`);
    return { value: task() };
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
