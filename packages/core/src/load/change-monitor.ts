/**
 * Whether refresh() has to stat every skill file, or can tell from a watcher that nothing
 * moved. A stat walk is O(files): ≈ 1.2 ms at 1,000 skills and ≈ 30 ms for the 15,725-file
 * mirror on the 2-core target, paid on every model call when a host refreshes before each.
 *
 * On Linux, fs.watch is inotify, and the kernel queues an inotify event inside the very
 * syscall that changes a folder or a file in it, whichever process makes it. So once the
 * event loop has polled after refresh() was called, every change made before the call has
 * reached the watcher: refresh() waits two event-loop turns (the second guarantees a poll
 * phase in between), and when no event came, nothing changed. That is as strict as the stat
 * walk, at the cost of two turns. What inotify cannot see (another machine writing to a
 * network file system, a dropped event queue) is caught by a full stat walk at least every
 * {@link FULL_CHECK_INTERVAL_MS}; a folder that could not be watched (out of watches), a skill
 * file that is a symbolic link (its target may change in a folder nobody watches), any
 * other platform (FSEvents and the like deliver late), and `refresh({ full: true })` always
 * walk.
 */
import { FolderWatcher } from "./watch.js";

/** The longest refresh() relies on the watcher alone before it stats every file again. */
export const FULL_CHECK_INTERVAL_MS = 2_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ChangeMonitor {
  private watcher: FolderWatcher | undefined;
  private dirty = true;
  private lastFullCheck = Number.NEGATIVE_INFINITY;
  private closed = false;
  private calls = 0;

  private trusted = false;

  /** `folders`: what to watch, or undefined when watching cannot vouch for the shelf (linked skill files). */
  constructor(
    private readonly folders: () => string[] | undefined,
    private readonly enabled = process.platform === "linux",
    private readonly intervalMs = FULL_CHECK_INTERVAL_MS,
  ) {}

  /** True when refresh() must walk: something may have moved, or the watcher cannot vouch. */
  async mustCheck(): Promise<boolean> {
    if (!this.enabled || this.closed) return true;
    if (!this.watcher) {
      // Not on the first call: a process that refreshes once (a serverless request) does not
      // pay for the watches (≈ 170 ms and 60 MiB for the mirror's 16,000 folders).
      if (this.calls++ === 0) return true;
      // Watching starts before the walk, so a change during that walk is seen next time.
      this.watcher = new FolderWatcher(() => {
        this.dirty = true;
      });
      this.sync();
      return true;
    }
    if (
      this.dirty ||
      !this.trusted ||
      !this.watcher.complete ||
      performance.now() - this.lastFullCheck >= this.intervalMs
    )
      return true;
    await nextTurn();
    await nextTurn();
    return this.dirty;
  }

  /** A walk starts now: events from here on count against it. */
  checking(): void {
    this.dirty = false;
    this.lastFullCheck = performance.now();
  }

  /** The loader's folders changed: watch the new set. */
  sync(): void {
    if (!this.watcher) return;
    const folders = this.folders();
    this.trusted = folders !== undefined;
    this.watcher.sync(folders ?? []);
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
    this.dirty = true;
  }
}
