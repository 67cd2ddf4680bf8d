/**
 * The watcher's safety net, run off the request path: stats every path of an
 * {@link ExpectedStates} list in short slices (at most {@link SLICE_STATS} stats or
 * {@link SLICE_MS}, whichever comes first), with a turn of the event loop between slices, so
 * a model call arriving meanwhile waits for at most one slice instead of the whole walk
 * (≈ 30 ms wall at 1,000 skills on the loaded 2-core target, far more for the 15,725-file
 * mirror).
 *
 * Sync stats on purpose. Measured at 1,000 skills (2,001 paths, a thousand of them a missing
 * schema.json), load 22: asynchronous `fs.stat` in batches of 16 cost 35 ms of process CPU per
 * walk (16 ms on the main thread; an error object for every missing file), batches of 64 28
 * ms, against 6.8 ms for these slices — the same work as the request-path walk it replaces. A
 * slow file system (a network one, the case this net is for) holds the event loop for one
 * slice's time and one stat, never for the walk.
 */
import type { ExpectedStates } from "./expected-states.js";
import { statOrUndefined } from "./signature.js";

/** The most stats in one slice, and the longest a slice goes on (ms). */
export const SLICE_STATS = 64;
export const SLICE_MS = 1;

export type WalkResult = "same" | "changed" | "stopped";

// unref: a walk under way does not keep a host process alive either (it dies with the process).
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve).unref());

/**
 * "same" when every path still has the state it is expected to have, "changed" at the first
 * that does not, "stopped" as soon as `stopped()` says so (checked before each slice).
 */
export async function walkExpected(expected: ExpectedStates, stopped: () => boolean): Promise<WalkResult> {
  let at = 0;
  while (at < expected.length) {
    await nextTurn();
    if (stopped()) return "stopped";
    const end = Math.min(at + SLICE_STATS, expected.length);
    const until = performance.now() + SLICE_MS;
    for (; at < end; at++) {
      if (!expected.holds(at, statOrUndefined(expected.path(at)))) return "changed";
      if (performance.now() > until) {
        at++;
        break;
      }
    }
  }
  return "same";
}
