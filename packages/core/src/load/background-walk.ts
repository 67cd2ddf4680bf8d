/**
 * The watcher's safety net, run off the request path: stats every path of an
 * {@link ExpectedStates} list with asynchronous stats, a few at a time, so that a model call
 * arriving meanwhile waits for at most one small batch's callbacks instead of the whole walk
 * (≈ 30 ms wall at 1,000 skills on the loaded 2-core target, far more for the 15,725-file
 * mirror). Asynchronous on purpose, though a sync stat costs less CPU: the paths this net is
 * for (a network file system) are the ones whose stats can take milliseconds each, and the
 * walk must never hold the event loop for that. A small batch leaves most of libuv's thread
 * pool (4 threads by default) to the host's own file work.
 */
import fs from "node:fs";
import type { ExpectedStates } from "./expected-states.js";

/** Stats in flight at once. */
export const WALK_BATCH = 16;

export type WalkResult = "same" | "changed" | "stopped";

/**
 * "same" when every path still has the state it is expected to have, "changed" at the first
 * that does not, "stopped" as soon as `stopped()` says so (checked between batches: a walk
 * that was stopped never reads what a later snapshot put in `expected`).
 */
export async function walkExpected(
  expected: ExpectedStates,
  stopped: () => boolean,
  batch = WALK_BATCH,
): Promise<WalkResult> {
  const stats: Array<fs.Stats | undefined> = new Array(batch);
  for (let start = 0; start < expected.length; start += batch) {
    if (stopped()) return "stopped";
    const end = Math.min(start + batch, expected.length);
    await statBatch(expected, start, end, stats);
    if (stopped()) return "stopped";
    for (let at = start; at < end; at++) if (!expected.holds(at, stats[at - start])) return "changed";
  }
  return "same";
}

/** Stats paths [start, end) into `into` (undefined: missing or unreadable, as the loader's check treats it). */
function statBatch(
  expected: ExpectedStates,
  start: number,
  end: number,
  into: Array<fs.Stats | undefined>,
): Promise<void> {
  return new Promise((resolve) => {
    let pending = end - start;
    for (let at = start; at < end; at++) {
      const slot = at - start;
      fs.stat(expected.path(at), (error, st) => {
        into[slot] = error ? undefined : st;
        if (--pending === 0) resolve();
      });
    }
  });
}
