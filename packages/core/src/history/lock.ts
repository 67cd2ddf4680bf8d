/**
 * One writer per skill file, across processes: proper-lockfile (an atomic `mkdir` lock
 * folder whose mtime the holder keeps fresh) with one addition made through its `fs`
 * option: the lock folder records its owner (pid, host, pid namespace), so a lock left by
 * a process that died — killed mid-write — is taken over at once instead of after the
 * stale timeout. When the owner cannot be checked (another host, another pid namespace,
 * an unreadable record) proper-lockfile's mtime rule decides, as usual.
 *
 * The lock folder is `.<file>.lock` beside the file: hidden from skill loading, and shared
 * by every shelf (project or user state folder) that writes that file.
 */
import * as fs from "node:fs";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { SkillWriteError } from "./errors.js";

export interface LockOptions {
  /** How long to wait for a lock another writer holds before failing with LOCKED (ms). Default 10 000. */
  wait?: number;
  /**
   * A lock whose owner cannot be checked counts as abandoned after this long without a
   * refresh (ms; proper-lockfile's `stale`, minimum 2 000). Default 10 000.
   */
  stale?: number;
}

export interface HeldLock {
  /** Throws LOCK_COMPROMISED if the lock was lost; call it right before the irreversible step. */
  assertHeld(): void;
}

const OWNER_FILE = "owner.json";

interface Owner {
  pid: number;
  host: string;
  pidns?: string;
  nonce: string;
}

const self: Omit<Owner, "nonce"> = { pid: process.pid, host: hostname(), pidns: pidNamespace() };

function pidNamespace(): string | undefined {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
}

export function lockPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.lock`);
}

function randomHex(): string {
  return Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, "0");
}

/** Same naming as atomic-write's temp files, so one cleanup rule covers both. */
function scratchPath(lockPath: string): string {
  return `${lockPath}.${process.pid}.${randomHex()}.tmp`;
}

function readOwner(lockDir: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(join(lockDir, OWNER_FILE), "utf8")) as Owner;
    return typeof owner.pid === "number" && typeof owner.nonce === "string" ? owner : undefined;
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, we just may not signal it.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True only when we can be sure: same host, same pid namespace, and no such process. */
function ownerIsDead(owner: Owner): boolean {
  return (
    owner.host === self.host &&
    owner.pidns === self.pidns &&
    owner.pid !== self.pid &&
    !isProcessAlive(owner.pid)
  );
}

/** Nonces of the locks this process holds, by lock path. */
const held = new Map<string, string>();
/** Owner nonce seen when a lock was judged stale, by lock path: only that exact lock may be removed. */
const judged = new Map<string, string | undefined>();

type Callback<T = void> = (error: NodeJS.ErrnoException | null, value?: T) => void;

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * The `fs` given to proper-lockfile. Only the lock folder's creation, inspection and
 * removal differ from node's; everything else passes through.
 */
const ownerAwareFs = {
  ...fs,
  // Create the folder with its owner record already inside, then rename it into place:
  // the lock never exists without an owner, so no waiter can misjudge a half-made lock.
  mkdir(path: string, callback: Callback) {
    const scratch = scratchPath(path);
    const owner: Owner = { ...self, nonce: randomHex() + randomHex() };
    try {
      fs.mkdirSync(scratch);
      fs.writeFileSync(join(scratch, OWNER_FILE), JSON.stringify(owner));
    } catch (error) {
      fs.rmSync(scratch, { recursive: true, force: true });
      return callback(error as NodeJS.ErrnoException);
    }
    fs.rename(scratch, path, (error) => {
      if (!error) {
        held.set(path, owner.nonce);
        return callback(null);
      }
      fs.rmSync(scratch, { recursive: true, force: true });
      // A non-empty folder already there: somebody holds the lock.
      if (error.code === "ENOTEMPTY" || error.code === "EEXIST" || error.code === "EPERM") {
        return callback(errnoError("EEXIST", `lock ${path} exists`));
      }
      callback(error);
    });
  },

  stat(path: string, callback: Callback<fs.Stats>) {
    fs.stat(path, (error, stats) => {
      if (error) return callback(error);
      if (held.has(path)) return callback(null, stats); // our own lock: proper-lockfile's refresh check
      const owner = readOwner(path);
      judged.set(path, owner?.nonce);
      if (owner && ownerIsDead(owner)) {
        // Report it as ancient so proper-lockfile's own stale path takes it over now
        // (proper-lockfile reads nothing but `mtime` from a lock's stats).
        return callback(null, { mtime: new Date(0) } as fs.Stats);
      }
      callback(null, stats);
    });
  },

  // Removal renames the folder away first (atomic), then checks it removed the lock it
  // meant to: our own, or the exact stale one it judged. If a waiter raced us and took
  // the lock in between, the folder goes back and we report the lock as held.
  rmdir(path: string, callback: Callback) {
    const tomb = scratchPath(path);
    fs.rename(path, tomb, (error) => {
      if (error) return callback(error);
      const owner = readOwner(tomb);
      const ours = held.get(path);
      const expected = judged.get(path);
      if (
        (ours !== undefined && owner?.nonce === ours) ||
        (ours === undefined && owner?.nonce === expected)
      ) {
        held.delete(path);
        judged.delete(path);
        fs.rm(tomb, { recursive: true, force: true }, () => callback(null));
        return;
      }
      fs.rename(tomb, path, () => callback(errnoError("ELOCKED", `lock ${path} was taken over meanwhile`)));
    });
  },

  // Used by proper-lockfile's exit handler for locks still held when the process exits.
  rmdirSync(path: string) {
    const tomb = scratchPath(path);
    fs.renameSync(path, tomb);
    fs.rmSync(tomb, { recursive: true, force: true });
    held.delete(path);
  },
};

/** Same-process writers queue here, so only writers in other processes ever meet the lock folder. */
const queues = new Map<string, Promise<unknown>>();

async function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => {});
  queues.set(key, tail);
  try {
    return await run;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `task` while holding the lock on `file`; the lock is released whatever happens. */
export async function withFileLock<T>(
  file: string,
  task: (lock: HeldLock) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const lockPath = lockPathFor(file);
  return serialize(lockPath, async () => {
    let compromised: Error | undefined;
    const release = await acquire(file, lockPath, options, (error) => {
      compromised = error;
    });
    const lock: HeldLock = {
      assertHeld() {
        if (compromised) {
          throw new SkillWriteError(
            "LOCK_COMPROMISED",
            `lost the lock on ${file} (${compromised.message}); nothing was written — retry`,
            { file },
            { cause: compromised },
          );
        }
      },
    };
    try {
      return await task(lock);
    } finally {
      if (!compromised) await release().catch(() => {});
      held.delete(lockPath);
    }
  });
}

async function acquire(
  file: string,
  lockPath: string,
  options: LockOptions,
  onCompromised: (error: Error) => void,
): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.wait ?? 10_000);
  let delay = 5;
  // Loaded on the first lock, not at import: a process that only loads and plans never takes one.
  const { default: lockfile } = await import("proper-lockfile");
  for (;;) {
    try {
      return await lockfile.lock(file, {
        lockfilePath: lockPath,
        stale: options.stale ?? 10_000,
        realpath: false,
        retries: 0,
        fs: ownerAwareFs as unknown as typeof fs,
        onCompromised,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
      if (Date.now() >= deadline) {
        throw new SkillWriteError(
          "LOCKED",
          `another writer has held the lock on ${file} for over ${options.wait ?? 10_000} ms; retry later (lock folder: ${lockPath})`,
          { file, lockPath },
          { cause: error },
        );
      }
      await sleep(delay * (0.5 + Math.random()));
      delay = Math.min(delay * 1.5, 100);
    }
  }
}

/**
 * Removes scratch folders of lock attempts whose process is gone (a crash between
 * creating the folder and renaming it into place). Safe at any time: a live attempt's
 * folder names a live pid.
 */
export function removeDeadLockScratch(file: string): void {
  const lockName = basename(lockPathFor(file));
  const dir = dirname(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const pattern = new RegExp(`^${escapeRegExp(lockName)}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    fs.rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
