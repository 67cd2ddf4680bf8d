/**
 * Whether refresh() has to stat every skill file on the request path, or can tell from a
 * watcher that nothing moved. A stat walk is O(files): ≈ 30 ms wall (8 ms CPU) at 1,000
 * skills on the loaded 2-core target, far more for the 15,725-file mirror, and the model
 * call that lands on one waits for all of it.
 *
 * On Linux, fs.watch is inotify, and the kernel queues an inotify event inside the very
 * syscall that changes a folder or a file in it, whichever process makes it. So once the
 * event loop has polled after refresh() was called, every change made before the call has
 * reached the watcher: refresh() waits two event-loop turns (the second guarantees a poll
 * phase in between), and when no event came, nothing changed. That is as strict as the stat
 * walk, at the cost of two turns.
 *
 * What inotify cannot see (another machine writing to a network file system, a dropped event
 * queue) is caught by the safety net: a stat walk every {@link FULL_CHECK_INTERVAL_MS}, run in
 * the background (background-walk.ts: stats in slices of at most 64 files or 1 ms, a turn of
 * the event loop between slices, on an unref'd timer, stopped by close()). What it finds marks the shelf dirty, so the next refresh()
 * reloads as if the watcher had reported it. The bound: an edit the watcher misses is seen by
 * every refresh() made {@link STALE_AFTER_MS} or more after it — when no background walk has
 * completed in that time (a busy thread pool, an idle shelf whose walks stopped), refresh()
 * walks on the request path itself. It also walks there on the first two calls (a process
 * that refreshes once — a serverless request — never pays for the watches: ≈ 170 ms and
 * 60 MiB for the mirror's 16,000 folders), after a watcher event, when a folder could not be
 * watched, when a skill file is a symbolic link (its target may change in a folder nobody
 * watches), with `refresh({ full: true })`, and on any other platform (FSEvents and the like
 * deliver late).
 */
import { walkExpected } from "./background-walk.js";
import { ExpectedStates } from "./expected-states.js";
import { FolderWatcher } from "./watch.js";

/** How often the background walk stats every file. */
export const FULL_CHECK_INTERVAL_MS = 2_000;
/**
 * The longest refresh() relies on the watcher without a completed walk (background or its
 * own) newer than that: one interval, plus as long again for the walk itself.
 */
export const STALE_AFTER_MS = 2 * FULL_CHECK_INTERVAL_MS;
/** No refresh() for this long: the background walks stop until the next call (an idle shelf stats nothing). */
export const IDLE_AFTER_MS = 30 * FULL_CHECK_INTERVAL_MS;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ChangeMonitorOptions {
  /** What to watch, or undefined when watching cannot vouch for the shelf (linked skill files). */
  folders: () => string[] | undefined;
  /** The loader's expected file states, taken between its refreshes (for the background walk). */
  expected: (into: ExpectedStates) => Promise<ExpectedStates>;
  enabled?: boolean;
  intervalMs?: number;
}

export class ChangeMonitor {
  private watcher: FolderWatcher | undefined;
  private dirty = true;
  /** When the newest walk that found everything as loaded began (a request-path walk or a background one). */
  private verifiedAt = Number.NEGATIVE_INFINITY;
  private lastCall = Number.NEGATIVE_INFINITY;
  private closed = false;
  private calls = 0;
  private trusted = false;
  private readonly enabled: boolean;
  private readonly intervalMs: number;
  private readonly staleMs: number;
  private readonly idleMs: number;

  private timer: NodeJS.Timeout | undefined;
  /** A background walk is between its start and its end (at most one at a time: they share `states`). */
  private walking = false;
  /** Bumped to stop the background walk in flight (a request-path walk made it moot, or close()). */
  private walkToken = 0;
  private readonly states = new ExpectedStates();

  constructor(private readonly options: ChangeMonitorOptions) {
    this.enabled = options.enabled ?? process.platform === "linux";
    this.intervalMs = options.intervalMs ?? FULL_CHECK_INTERVAL_MS;
    this.staleMs = (STALE_AFTER_MS / FULL_CHECK_INTERVAL_MS) * this.intervalMs;
    this.idleMs = (IDLE_AFTER_MS / FULL_CHECK_INTERVAL_MS) * this.intervalMs;
  }

  /** True when refresh() must walk: something may have moved, or the watcher cannot vouch. */
  async mustCheck(): Promise<boolean> {
    if (!this.enabled || this.closed) return true;
    this.lastCall = performance.now();
    if (!this.watcher) {
      // Not on the first call: a process that refreshes once does not pay for the watches.
      if (this.calls++ === 0) return true;
      // Watching starts before the walk, so a change during that walk is seen next time.
      this.watcher = new FolderWatcher(() => {
        this.dirty = true;
      });
      this.sync();
      this.schedule(this.intervalMs);
      return true;
    }
    // Back from idle: the walks start again (this call walks itself when the last is too old).
    if (!this.timer && !this.walking) this.schedule(this.intervalMs);
    if (
      this.dirty ||
      !this.trusted ||
      !this.watcher.complete ||
      performance.now() - this.verifiedAt >= this.staleMs
    )
      return true;
    await nextTurn();
    await nextTurn();
    return this.dirty;
  }

  /** A request-path walk starts now: events from here on count against it; a background walk in flight is moot. */
  checking(): void {
    this.dirty = false;
    this.verifiedAt = performance.now();
    this.walkToken++;
  }

  /** The request-path walk failed (it threw): what it began to check is not checked. */
  failed(): void {
    this.dirty = true;
  }

  /** The loader's folders changed: watch the new set. */
  sync(): void {
    if (!this.watcher) return;
    const folders = this.options.folders();
    this.trusted = folders !== undefined;
    this.watcher.sync(folders ?? []);
  }

  close(): void {
    this.closed = true;
    this.walkToken++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
    this.dirty = true;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    // unref: the safety net must never keep a host process alive by itself.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.backgroundWalk();
    }, delayMs);
    this.timer.unref();
  }

  private async backgroundWalk(): Promise<void> {
    if (this.closed) return;
    const startedAt = performance.now();
    if (startedAt - this.lastCall >= this.idleMs) return; // idle: the next refresh() starts the walks again
    // Nothing to prove while the next refresh() walks on the request path anyway.
    if (this.dirty || !this.trusted || !this.watcher?.complete) {
      this.schedule(this.intervalMs);
      return;
    }
    this.walking = true;
    const token = ++this.walkToken;
    const stopped = () => this.closed || this.dirty || token !== this.walkToken;
    try {
      // The time before the snapshot is taken: what the walk proves holds for every edit made before it.
      const states = await this.options.expected(this.states);
      const result = await walkExpected(states, stopped);
      if (result === "changed") this.dirty = true;
      else if (result === "same") this.verifiedAt = Math.max(this.verifiedAt, startedAt);
    } catch {
      // Proves nothing; the next walk, or refresh() once the last proof is stale, tries again.
    } finally {
      this.walking = false;
    }
    this.schedule(Math.max(0, this.intervalMs - (performance.now() - startedAt)));
  }
}
