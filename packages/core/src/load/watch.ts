/**
 * Opt-in file watching. A watcher only says "something may have changed": it schedules a
 * debounced refresh(), and refresh() decides from stats what really did. Events that
 * fs.watch drops (network drives, inotify limits) therefore cost latency, never
 * correctness — refresh() still sees them, by its safety-net walk (change-monitor.ts).
 */
import fs from "node:fs";
import path from "node:path";

/** Editors save in bursts (write, rename, chmod); one refresh per burst. */
export const WATCH_DEBOUNCE_MS = 50;

export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  /** The folder each watcher watches (for its error handler, which all watchers share). */
  private readonly folderOf = new WeakMap<fs.FSWatcher, string>();
  private closed = false;
  /** Folders of the last sync that could not be watched (out of watches, vanished). */
  private unwatched = 0;
  // One listener of each kind for every watcher: a shelf can watch 16,000 folders, and two
  // closures per watch were ≈ 2 MB of them.
  private readonly onChange: (this: fs.FSWatcher, eventType: string, filename: string | null) => void;
  private readonly onError: (this: fs.FSWatcher) => void;

  constructor(private readonly onEvent: () => void) {
    const self = this;
    this.onChange = function (this: fs.FSWatcher, eventType: string, filename: string | null) {
      // A "rename" of the watched folder's own name (inotify reports the folder's deletion or
      // move so): the watch now holds a folder that is no longer at its path. Another may be
      // there already (a folder replaced by a rename, or made again at once, even on the same
      // inode number), and a sync that finds the path still there would keep the dead watch.
      if (eventType === "rename" && filename !== null) {
        const folder = self.folderOf.get(this);
        if (folder !== undefined && filename === path.basename(folder)) self.rewatch(folder, this);
      }
      self.onEvent();
    };
    this.onError = function (this: fs.FSWatcher) {
      // The folder went away (or the watch broke): forget it; the refresh re-syncs.
      this.close();
      const folder = self.folderOf.get(this);
      if (folder !== undefined && self.watchers.get(folder) === this) self.watchers.delete(folder);
      self.unwatched++;
      self.onEvent();
    };
  }

  /** Watches exactly `folders` (missing ones through their nearest existing parent). */
  sync(folders: readonly string[]): void {
    if (this.closed) return;
    this.unwatched = 0;
    const watched = new Set<string>();
    for (const folder of folders) {
      if (watched.has(folder)) continue;
      // A folder not watched yet is watched straight away (the scan has just seen it; a
      // missing one fails with ENOENT): no existence check per folder, 16,000 of them on the
      // mirror. One already watched may have been deleted since (a root that is gone).
      const known = this.watchers.has(folder);
      if (known ? fs.existsSync(folder) : this.watch(folder) !== "missing") {
        watched.add(folder);
        continue;
      }
      const parent = nearestExisting(folder);
      watched.add(parent);
      if (!this.watchers.has(parent)) this.watch(parent);
    }
    for (const [folder, watcher] of this.watchers) {
      if (!watched.has(folder)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
  }

  /**
   * Watches what is at `folder` now in place of `watcher`. Gone for now: the refresh its
   * parent's event brings re-syncs, and watches the folder made there next. The new watch is
   * made before the old one is closed: when it is the same folder after all (an entry of the
   * folder's own name was renamed inside it), the two share one inotify watch, and no event
   * falls between them.
   */
  private rewatch(folder: string, watcher: fs.FSWatcher): void {
    if (this.closed || this.watchers.get(folder) !== watcher) return;
    if (this.watch(folder) !== "watched") this.watchers.delete(folder);
    watcher.close();
  }

  private watch(folder: string): "watched" | "missing" | "failed" {
    try {
      // persistent: false — watching skills must never keep a host process alive by itself.
      const watcher = fs.watch(folder, { persistent: false }, this.onChange);
      watcher.on("error", this.onError);
      this.folderOf.set(watcher, folder);
      this.watchers.set(folder, watcher);
      return "watched";
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
      // Out of watches (ENOSPC/EMFILE) or unreadable: refresh() still covers this folder.
      this.unwatched++;
      return "failed";
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
