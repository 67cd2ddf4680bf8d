/**
 * Atomic file replacement: write a temp file in the same folder, fsync it, rename it over
 * the target, fsync the folder. A reader (or a crash) sees the complete old file or the
 * complete new one, never a mix.
 *
 * Hand-written rather than `write-file-atomic` for two reasons: that package reaches for
 * `fs` directly, so the fault tests could not inject a failing write/fsync/rename, and it
 * does not fsync the folder, so a power loss right after the rename may forget it.
 */
import * as nodeFs from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The file-system calls an atomic write makes; inject a wrapper to simulate failures. */
export interface AtomicFs {
  open(path: string, flags: string, mode?: number): Promise<AtomicFileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<{ mode: number }>;
}

export interface AtomicFileHandle {
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export const nodeAtomicFs: AtomicFs = {
  open: (path, flags, mode) => nodeFs.open(path, flags, mode),
  rename: (from, to) => nodeFs.rename(from, to),
  unlink: (path) => nodeFs.unlink(path),
  stat: (path) => nodeFs.stat(path),
};

export interface AtomicWriteOptions {
  fs?: AtomicFs;
  /** Permission bits for a new file; an existing file keeps its own. Default 0o644. */
  mode?: number;
  /**
   * Runs once the new content is safely in the temp file, right before the rename: the last
   * moment to look at what is about to be replaced. Throwing cancels the write (the temp
   * file is removed, the target untouched).
   */
  beforeRename?: () => Promise<void>;
}

export interface AtomicWriteResult {
  /** False when the folder could not be fsynced (platforms without directory fsync); the rename happened. */
  dirSynced: boolean;
}

const TEMP_SUFFIX = ".tmp";
const TEMP_TAIL = String.raw`\.\d+\.[0-9a-f]{8}\.tmp$`;
const TEMP_PATTERN = new RegExp(String.raw`^\..+` + TEMP_TAIL);
const TEMP_TAIL_ONLY = new RegExp(`^${TEMP_TAIL}`);

/** `.<name>.<pid>.<random>.tmp` beside the target: hidden from skill loading, recognisable for cleanup. */
export function tempPathFor(target: string): string {
  const random = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, "0");
  return join(dirname(target), `.${basename(target)}.${process.pid}.${random}${TEMP_SUFFIX}`);
}

/** Whether a folder entry is a temp file this module creates (for `target`, when given). */
export function isTempFileName(name: string, target?: string): boolean {
  if (target === undefined) return TEMP_PATTERN.test(name);
  return name.startsWith(`.${target}.`) && TEMP_TAIL_ONLY.test(name.slice(target.length + 1));
}

export async function atomicWrite(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  const fs = options.fs ?? nodeAtomicFs;
  const mode = await existingMode(fs, target, options.mode ?? 0o644);
  const temp = tempPathFor(target);

  let handle: AtomicFileHandle | undefined;
  let renamed = false;
  try {
    // "wx": never follow or clobber something already at the temp path.
    handle = await fs.open(temp, "wx", mode);
    await handle.writeFile(data);
    await handle.sync();
    const opened = handle;
    handle = undefined;
    await opened.close();
    await options.beforeRename?.();
    await fs.rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) {
      // Best effort: the original is untouched either way; only the temp file needs to go.
      await handle?.close().catch(() => {});
      await fs.unlink(temp).catch(() => {});
    }
  }
  return { dirSynced: await syncDir(fs, dirname(target)) };
}

async function existingMode(fs: AtomicFs, target: string, fallback: number): Promise<number> {
  try {
    return (await fs.stat(target)).mode & 0o7777;
  } catch {
    return fallback;
  }
}

/**
 * Makes the rename itself durable. Failure here is reported, not thrown: the new file is
 * already in place, and throwing would make the caller believe the write did not happen.
 */
async function syncDir(fs: AtomicFs, dir: string): Promise<boolean> {
  // Windows cannot open a folder to fsync it (NTFS journals the rename itself): not a failure.
  if (process.platform === "win32") return true;
  let handle: AtomicFileHandle | undefined;
  try {
    handle = await fs.open(dir, "r");
    await handle.sync();
    return true;
  } catch {
    return false;
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Removes temp files a crashed writer left in `dir` (only those for `target` when given).
 * Call it only while holding the lock every writer of those files takes: then no live
 * writer can own one of them.
 */
export async function removeStaleTempFiles(dir: string, target?: string): Promise<string[]> {
  let names: string[];
  try {
    names = await nodeFs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!isTempFileName(name, target)) continue;
    await nodeFs.rm(join(dir, name), { force: true }).catch(() => {});
    removed.push(name);
  }
  return removed;
}
