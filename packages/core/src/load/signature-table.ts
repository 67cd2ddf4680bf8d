/**
 * The loader's kept file signatures, as numbers in one typed array instead of one object per
 * file. A {@link Signature} object holds four doubles, each a separate 16-byte number on V8's
 * heap: ≈ 130 bytes per skill file, ≈ 2 MiB of what a load of the 15,725-file mirror keeps,
 * and every byte a load keeps on the heap counts (twice) towards the survivors that make V8
 * grow its young generation. Here a file's signature is a slot: four float64s and a kind
 * byte outside the heap. Comparisons read the slot in place; a Signature object is made only
 * for callers that want one (a prebuilt shelf's records).
 */
import { type Signature, statMatches, statOrUndefined } from "./signature.js";

/** A slot's kind: no signature (the file was missing, or its signature was dropped). */
const NONE = 0;
const PRESENT = 1;
/** A regular file (after following links). */
const REGULAR = 2;

export class SignatureTable {
  /** Per slot: mtimeMs, ctimeMs, size, ino. */
  private numbers = new Float64Array(4 * 256);
  private kinds = new Uint8Array(256);
  private readonly free: number[] = [];
  private used = 0;

  /** A new slot holding `sig` (or no signature). */
  add(sig: Signature | undefined): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.used++;
      if (slot >= this.kinds.length) this.grow();
    }
    this.set(slot, sig);
    return slot;
  }

  /** The slot is no longer used (its file is gone). */
  release(slot: number): void {
    this.kinds[slot] = NONE;
    this.free.push(slot);
  }

  set(slot: number, sig: Signature | undefined): void {
    if (sig === undefined) {
      this.kinds[slot] = NONE;
      return;
    }
    const at = slot * 4;
    this.numbers[at] = sig.mtimeMs;
    this.numbers[at + 1] = sig.ctimeMs;
    this.numbers[at + 2] = sig.size;
    this.numbers[at + 3] = sig.ino;
    this.kinds[slot] = sig.isFile ? REGULAR : PRESENT;
  }

  /** The slot's signature as an object (undefined: none). */
  get(slot: number): Signature | undefined {
    const kind = this.kinds[slot];
    if (kind === NONE) return undefined;
    const at = slot * 4;
    return {
      mtimeMs: this.numbers[at]!,
      ctimeMs: this.numbers[at + 1]!,
      size: this.numbers[at + 2]!,
      ino: this.numbers[at + 3]!,
      isFile: kind === REGULAR,
    };
  }

  /** `sameSignature(this.get(slot), sig)` without making the object. */
  same(slot: number, sig: Signature | undefined): boolean {
    if (this.kinds[slot] === NONE || sig === undefined) return this.kinds[slot] === NONE && sig === undefined;
    const at = slot * 4;
    return (
      this.numbers[at] === sig.mtimeMs &&
      this.numbers[at + 1] === sig.ctimeMs &&
      this.numbers[at + 2] === sig.size &&
      this.numbers[at + 3] === sig.ino
    );
  }

  /** `checkSignature(path, this.get(slot))`, without making the object. */
  check(path: string, slot: number): "same" | "changed" | "missing" {
    const st = statOrUndefined(path);
    if (st === undefined) return "missing";
    const n = this.numbers;
    const at = slot * 4;
    return this.kinds[slot] !== NONE && statMatches(st, n[at]!, n[at + 1]!, n[at + 2]!, n[at + 3]!)
      ? "same"
      : "changed";
  }

  /** `isUnchanged(path, this.get(slot))`, without making the object. */
  unchanged(path: string, slot: number): boolean {
    const check = this.check(path, slot);
    return check === "same" || (check === "missing" && this.kinds[slot] === NONE);
  }

  /** Copies the slot's four numbers to `into` from `at` (for a check off the request path); false when it holds none. */
  copyTo(slot: number, into: Float64Array, at: number): boolean {
    if (this.kinds[slot] === NONE) return false;
    const n = this.numbers;
    into[at] = n[slot * 4]!;
    into[at + 1] = n[slot * 4 + 1]!;
    into[at + 2] = n[slot * 4 + 2]!;
    into[at + 3] = n[slot * 4 + 3]!;
    return true;
  }

  private grow(): void {
    this.kinds = doubled(this.kinds);
    this.numbers = doubled(this.numbers);
  }
}

/** A typed array twice as long, holding `array` at its start. */
export function doubled<T extends Uint8Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
