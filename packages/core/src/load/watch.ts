/**
 * Opt-in file watching. A watcher only says "something may have changed": it schedules a
 * debounced refresh(), and refresh() decides from stats what really did. Events that
 * fs.watch drops (network drives, inotify limits) therefore cost latency, never
 * correctness — the next refresh() before a turn still sees everything.
 */
import fs from "node:fs";
import path from "node:path";

/** Editors save in bursts (write, rename, chmod); one refresh per burst. */
export const WATCH_DEBOUNCE_MS = 50;

export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private closed = false;
  /** Folders of the last sync that could not be watched (out of watches, vanished). */
  private unwatched = 0;

  constructor(private readonly onEvent: () => void) {}

  /** Watches exactly `folders` (missing ones through their nearest existing parent). */
  sync(folders: readonly string[]): void {
    if (this.closed) return;
    const wanted = new Set(folders.map(nearestExisting));
    this.unwatched = 0;
    for (const [folder, watcher] of this.watchers) {
      if (!wanted.has(folder)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (this.watchers.has(folder)) continue;
      try {
        // persistent: false — watching skills must never keep a host process alive by itself.
        const watcher = fs.watch(folder, { persistent: false }, () => this.onEvent());
        watcher.on("error", () => {
          // The folder went away (or the watch broke): forget it; the refresh re-syncs.
          watcher.close();
          this.watchers.delete(folder);
          this.unwatched++;
          this.onEvent();
        });
        this.watchers.set(folder, watcher);
      } catch {
        // Out of watches (ENOSPC/EMFILE) or vanished: refresh() still covers this folder.
        this.unwatched++;
      }
    }
  }

  /** Every folder of the last sync is watched (so an event-free watcher means no change). */
  get complete(): boolean {
    return !this.closed && this.unwatched === 0;
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

/** `dir` if it exists, else its closest existing ancestor (creating the folder then shows up). */
function nearestExisting(dir: string): string {
  let current = dir;
  for (;;) {
    if (fs.existsSync(current)) return current;
    const parent = path.dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

/** Calls `fn` once, `ms` after the last of a burst of calls. */
export function debounce(fn: () => void, ms: number): { (): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const call = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
    timer.unref();
  };
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
