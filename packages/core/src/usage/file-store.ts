/**
 * Usage kept in one JSON file under the state folder (`<stateDir>/usage.json`).
 *
 * - Atomic: every write goes to a temp file in the same folder, is fsynced, then renamed
 *   over the old file, so a reader (or a crash) never sees half a file.
 * - Write-behind: a use changes the records in memory at once and is written within
 *   `writeDelay` (default 1 s), the uses of that span in one merge: a locked read-merge-fsync
 *   per activation would sit inside the model call that made it. `flush()`, the shelf's
 *   close() and a normal process exit write what is pending; a crash loses at most that span.
 * - Merging: a write re-reads the file and applies only this process's changes since the
 *   last write (count deltas, latest lastUsed, earliest firstSeen), so two agents sharing a
 *   project do not erase each other's counts. The read-merge-rename holds a short lock
 *   (`usage.json.lock`), so no increment is lost; if the lock cannot be had in time the
 *   changes stay pending and go out with the next write.
 * - Recovery: a file that is not valid usage JSON is moved aside to
 *   `usage.json.corrupt-<time>` (nothing is deleted) and the store starts empty;
 *   `onError` is told.
 */
import fs from "node:fs";
import path from "node:path";
import { ensureStateFolder } from "../events/state-gitignore.js";
import { usageChangeLog } from "./change-log.js";
import { applyUsageChanges, type UsageChange, type UsageRecord, type UsageStore, withUse } from "./store.js";
import { withSyncLock } from "./sync-lock.js";

export const USAGE_FILE = "usage.json";

export interface FileUsageStoreOptions {
  /** The state folder (usage.json goes inside it), e.g. `<project>/.skillshelf`. */
  dir: string;
  /** File name inside `dir`. Default `usage.json`. */
  file?: string;
  /** Told about a corrupt file moved aside or a failed write; the store keeps working in memory. */
  onError?: (error: Error) => void;
  /** How long recorded uses may wait before they are written together (ms, default 1 000); 0 writes on every call. */
  writeDelay?: number;
}

export interface FileUsageStore extends UsageStore {
  readonly file: string;
  /** Re-read the file (another process may have written it). */
  reload(): void;
  /** Write the uses not written yet, now (nothing to do when there are none). */
  flush(): void;
}

interface UsageFile {
  version: 1;
  skills: Record<string, UsageRecord>;
}

type Pending = UsageChange;

const DEFAULT_WRITE_DELAY_MS = 1_000;

/** Stores with unwritten uses: a normal exit writes them (one listener for all of them). */
const unwritten = new Set<() => void>();
let exitHooked = false;
function writeOnExit(flush: () => void): void {
  unwritten.add(flush);
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const pending of [...unwritten]) pending();
  });
}

export function createFileUsageStore(options: FileUsageStoreOptions): FileUsageStore {
  const file = path.join(options.dir, options.file ?? USAGE_FILE);
  const report = options.onError ?? (() => {});
  let records = read(file, report);
  let version = 0;
  const pending = new Map<string, Pending>();
  const writeDelay = options.writeDelay ?? DEFAULT_WRITE_DELAY_MS;
  let timer: NodeJS.Timeout | undefined;

  const changes = usageChangeLog();

  function changed(names: readonly string[]): void {
    version++;
    changes.note(version, names);
    if (writeDelay <= 0) {
      flush();
      return;
    }
    writeOnExit(writeIfProjectRemains);
    if (timer) return;
    timer = setTimeout(flush, writeDelay);
    // A pending write never keeps a process alive: the exit hook writes it.
    timer.unref();
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    unwritten.delete(writeIfProjectRemains);
    if (pending.size === 0) return;
    let held: boolean;
    try {
      ensureStateFolder(path.dirname(file));
      held = withSyncLock(file, merge) !== undefined;
    } catch (error) {
      report(new Error(`skillshelf: could not lock ${file}: ${(error as Error).message}`));
      return;
    }
    if (!held) {
      report(new Error(`skillshelf: ${file} stayed locked; usage changes are kept for the next write`));
      writeOnExit(writeIfProjectRemains);
    }
  }

  // At exit, not into a project folder that is gone (a removed temp project): that would recreate it.
  function writeIfProjectRemains(): void {
    if (fs.existsSync(path.dirname(options.dir))) flush();
    else pending.clear();
  }

  function merge(): void {
    const current = read(file, report);
    applyUsageChanges(current, pending);
    pending.clear();
    records = current;
    version++;
    // Other processes' uses came in with the file: any record may differ.
    changes.reset(version);
    const body: UsageFile = { version: 1, skills: Object.fromEntries([...current].sort(byName)) };
    try {
      writeAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
    } catch (error) {
      report(new Error(`skillshelf: could not write ${file}: ${(error as Error).message}`));
    }
  }

  return {
    file,
    version: () => version,
    changedSince: (since) => changes.since(since),
    get: (name) => {
      const record = records.get(name);
      return record && { ...record };
    },
    all: () => Object.fromEntries([...records].map(([k, v]) => [k, { ...v }])),
    record(name, at = new Date()) {
      const iso = at.toISOString();
      records.set(name, withUse(records.get(name), at));
      const change = pending.get(name) ?? { uses: 0 };
      change.uses++;
      if (!change.lastUsed || change.lastUsed < iso) change.lastUsed = iso;
      // Uses written together: the earliest of them is when the skill was first seen, if nothing was earlier.
      if (!change.firstSeen || change.firstSeen > iso) change.firstSeen = iso;
      pending.set(name, change);
      changed([name]);
    },
    seen(names, at = new Date()) {
      const iso = at.toISOString();
      const added: string[] = [];
      for (const name of names) {
        if (records.has(name)) continue;
        records.set(name, { count: 0, firstSeen: iso });
        pending.set(name, { ...(pending.get(name) ?? { uses: 0 }), firstSeen: iso });
        added.push(name);
      }
      if (added.length > 0) changed(added);
    },
    reload() {
      records = read(file, report);
      // Uses not written yet still count here.
      applyUsageChanges(records, pending);
      version++;
      changes.reset(version);
    },
    flush,
  };
}

function byName([a]: [string, UsageRecord], [b]: [string, UsageRecord]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function read(file: string, report: (error: Error) => void): Map<string, UsageRecord> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      report(new Error(`skillshelf: could not read ${file}: ${(error as Error).message}`));
    }
    return new Map();
  }
  const parsed = parseUsage(text);
  if (parsed) return parsed;
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/gu, "-")}`;
  try {
    fs.renameSync(file, aside);
    report(
      new Error(`skillshelf: ${file} was not valid usage data; moved it to ${aside} and started afresh`),
    );
  } catch (error) {
    report(
      new Error(
        `skillshelf: ${file} is not valid usage data and could not be moved aside: ${(error as Error).message}`,
      ),
    );
  }
  return new Map();
}

/** Undefined when the text is not a usage file; invalid single entries are dropped. */
function parseUsage(text: string): Map<string, UsageRecord> | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(data) || data.version !== 1 || !isObject(data.skills)) return undefined;
  const records = new Map<string, UsageRecord>();
  for (const [name, value] of Object.entries(data.skills)) {
    if (!isObject(value)) continue;
    const count =
      typeof value.count === "number" && Number.isFinite(value.count) ? Math.max(0, value.count) : 0;
    const record: UsageRecord = { count };
    if (isTimestamp(value.lastUsed)) record.lastUsed = value.lastUsed;
    if (isTimestamp(value.firstSeen)) record.firstSeen = value.firstSeen;
    records.set(name, record);
  }
  return records;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTimestamp(value: unknown): value is string {
  return typeof value === "string" && !Number.isNaN(Date.parse(value));
}

/** temp file in the same folder → fsync → rename: readers see the old file or the new one. */
function writeAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = fs.openSync(temp, "w");
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
