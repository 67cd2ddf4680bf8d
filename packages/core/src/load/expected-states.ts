/**
 * What the first step of a loader refresh compares, copied out so that a check can run off
 * the request path (background-walk.ts): each path it stats, with the signature that path
 * must still have. Numbers in typed arrays, reused walk after walk: the mirror's list is
 * ≈ 31,000 entries, and a list of objects every 2 s would be that much garbage each time.
 */
import type fs from "node:fs";
import { type Signature, statMatches } from "./signature.js";
import { doubled, type SignatureTable } from "./signature-table.js";

/** Must not exist (a folder or schema.json recorded as missing). */
const ABSENT = 0;
/** Must exist with the recorded (mtime, ctime, size, inode). */
const MATCH = 1;
/** Differs whatever the disk says: the loader would read it again on its next refresh. */
const STALE = 2;

export class ExpectedStates {
  private paths: string[] = [];
  private numbers = new Float64Array(4 * 256);
  private kinds = new Uint8Array(256);
  private used = 0;

  get length(): number {
    return this.used;
  }

  path(at: number): string {
    return this.paths[at]!;
  }

  /** Empties the list (keeping its memory) for the next snapshot. */
  reset(): void {
    this.used = 0;
  }

  /** `path` must have `sig` (undefined: must not exist), as `isUnchanged` judges it. */
  add(path: string, sig: Signature | undefined): void {
    const at = this.next(path);
    if (sig === undefined) {
      this.kinds[at] = ABSENT;
      return;
    }
    this.kinds[at] = MATCH;
    const n = this.numbers;
    n[at * 4] = sig.mtimeMs;
    n[at * 4 + 1] = sig.ctimeMs;
    n[at * 4 + 2] = sig.size;
    n[at * 4 + 3] = sig.ino;
  }

  /** `path` must have the signature of the table's `slot` (none there: counts as changed, as the loader's check does). */
  addSlot(path: string, table: SignatureTable, slot: number): void {
    const at = this.next(path);
    this.kinds[at] = table.copyTo(slot, this.numbers, at * 4) ? MATCH : STALE;
  }

  /** `path` counts as changed whatever is on disk. */
  addStale(path: string): void {
    this.kinds[this.next(path)] = STALE;
  }

  /** Whether stats taken now (undefined: the path is missing) are what entry `at` expects. */
  holds(at: number, st: fs.Stats | undefined): boolean {
    const kind = this.kinds[at];
    if (kind === ABSENT) return st === undefined;
    if (kind === STALE || st === undefined) return false;
    const n = this.numbers;
    return statMatches(st, n[at * 4]!, n[at * 4 + 1]!, n[at * 4 + 2]!, n[at * 4 + 3]!);
  }

  private next(path: string): number {
    const at = this.used++;
    if (at >= this.kinds.length) {
      this.kinds = doubled(this.kinds);
      this.numbers = doubled(this.numbers);
    }
    this.paths[at] = path;
    return at;
  }
}
