/**
 * The stage-1 index's layout in a prebuilt shelf: the postings, document frequencies and
 * example lists `buildLexicalIndex` computes from the whole skill list, stored for the one
 * list a default shelf offers the model (builtin skills included, in the shelf's order), so
 * the first plan of a fresh process lays nothing out. It is used only for that list: the
 * same names in the same order, each with the content hash and the number of examples it
 * was built with (skill-index.ts); any other list is laid out as always.
 *
 * The arrays follow the skills' terms in the file's int32 section, in this order: df (T),
 * postingStart (T + 1), postingDocs (P, two 16-bit positions to an int32 while the list has
 * at most 65,536 skills, else one), postingWeights (P float32s), exampleStart (T + 1),
 * exampleList (X), exampleOwner (E), exampleSlot (E), then, from an even position,
 * exampleWeight (E float64s). T is the build's term count (`index.terms`).
 *
 * The file is input: every count, offset, position and weight is checked before a start uses
 * any of it (a bad one makes the whole file `prebuilt-unusable`), so a tampered layout can at
 * most steer which skills stage 1 offers — never index past an array, never grant a tool
 * (offered skills are checked against their files as ever).
 */
import { type LexicalIndex, type LexicalLayout, restoreLexicalIndex } from "../match/lexical-index.js";
import type { StoredIndexLayout, StoredReferences } from "../match/skill-index.js";
import type { Vocabulary } from "../match/vocabulary.js";
import type { Skill } from "../types.js";

/** One skill of the laid-out list that is not a recorded file: a builtin. */
export interface StoredLayoutBuiltin {
  name: string;
  hash: string;
  examples: number;
}

/** What the document says of the layout (`index.layout`). */
export interface StoredLayout {
  /** The list laid out: each a position in `files` (that file's skill), or `-1 - j` for `builtins[j]`. */
  skills: number[];
  builtins: StoredLayoutBuiltin[];
  /** Where its arrays start in the int32 section. */
  at: number;
  postings: number;
  exampleCount: number;
  exampleIds: number;
  references?: StoredReferences;
}

/** How many int32s the arrays take from `at` on (see the file comment). */
function layoutInts(at: number, skills: number, terms: number, shape: Shape): number {
  const docs = skills <= 0x10000 ? Math.ceil(shape.postings / 2) : shape.postings;
  let end = at + terms + (terms + 1) + docs + shape.postings + (terms + 1) + shape.exampleIds;
  end += 2 * shape.exampleCount;
  if (end % 2 !== 0) end++;
  return end + 2 * shape.exampleCount - at;
}

interface Shape {
  postings: number;
  exampleCount: number;
  exampleIds: number;
}

/** The layout's arrays as int32s to append at position `at` of the section (an even position is kept for the float64s). */
export function encodeLayout(index: LexicalIndex, at: number): Int32Array {
  const terms = index.termCount;
  const shape = {
    postings: index.postingDocs.length,
    exampleCount: index.exampleCount,
    exampleIds: index.exampleList.length,
  };
  const out = new Int32Array(layoutInts(at, index.size, terms, shape));
  let i = 0;
  out.set(index.df, i);
  i += terms;
  out.set(index.postingStart, i);
  i += terms + 1;
  if (index.size <= 0x10000) {
    const docs = new Uint16Array(out.buffer, out.byteOffset + 4 * i, 2 * Math.ceil(shape.postings / 2));
    docs.set(index.postingDocs);
    i += Math.ceil(shape.postings / 2);
  } else {
    out.set(index.postingDocs, i);
    i += shape.postings;
  }
  new Float32Array(out.buffer, out.byteOffset + 4 * i, shape.postings).set(index.postingWeights);
  i += shape.postings;
  out.set(index.exampleStart, i);
  i += terms + 1;
  out.set(index.exampleList, i);
  i += shape.exampleIds;
  out.set(index.exampleOwner, i);
  i += shape.exampleCount;
  out.set(index.exampleSlot, i);
  i += shape.exampleCount;
  if ((at + i) % 2 !== 0) i++;
  new Float64Array(out.buffer, out.byteOffset + 4 * i, shape.exampleCount).set(index.exampleWeight);
  return out;
}

/** A laid-out skill as the start compares it with the one it serves. */
export interface LaidOutSkill {
  name: string;
  hash: string;
  examples: number;
}

/**
 * The layout's arrays, each checked against the list and the term count, or a reason it is
 * unusable. `listed` is the laid-out list (its skills' names, hashes, example counts).
 */
export function decodeLayout(
  stored: StoredLayout,
  listed: readonly LaidOutSkill[],
  terms: number,
  ints: Int32Array,
): LexicalLayout | string {
  const n = listed.length;
  const { at, postings, exampleCount, exampleIds } = stored;
  const end = at + layoutInts(at, n, terms, stored);
  if (!Number.isSafeInteger(end) || end > ints.length) return "its arrays run past the end of the file";
  let i = at;
  const take = (length: number) => {
    const part = ints.subarray(i, i + length);
    i += length;
    return part;
  };
  const df = take(terms);
  const postingStart = take(terms + 1);
  const wide = n > 0x10000;
  const docWords = wide ? postings : Math.ceil(postings / 2);
  const docs = take(docWords);
  const postingDocs = wide ? docs : new Uint16Array(docs.buffer, docs.byteOffset, postings);
  const weights = take(postings);
  const postingWeights = new Float32Array(weights.buffer, weights.byteOffset, postings);
  const exampleStart = take(terms + 1);
  const exampleList = take(exampleIds);
  const exampleOwner = take(exampleCount);
  const exampleSlot = take(exampleCount);
  if (i % 2 !== 0) i++;
  const exampleWeight = float64s(ints, i, exampleCount);

  for (let t = 0; t < terms; t++) {
    const count = df[t] as number;
    if (count < 0 || count > n) return "a document frequency is out of range";
  }
  // What an index is read by must stay inside its arrays: positions below their bounds,
  // starts in order. (The order of a term's postings only steers scores, as any weight does.)
  if (!runsOf(postingStart, postings)) return "its posting starts are not in order";
  if (!(wide ? allBelow(docs, n) : pairsBelow(docs, n))) return "a posting names no skill of the list";
  if (!positiveFloats(weights)) return "a posting weight is not a positive number";
  if (!runsOf(exampleStart, exampleIds)) return "its example starts are not in order";
  if (!allBelow(exampleList, exampleCount)) return "an example list names no example";
  let owner = 0;
  for (let e = 0; e < exampleCount; e++) {
    const d = exampleOwner[e] as number;
    if (d < owner || d >= n) return "an example's skill is out of range or order";
    owner = d;
    const slot = exampleSlot[e] as number;
    if (slot < 0 || slot >= (listed[d] as LaidOutSkill).examples)
      return "an example's position is out of range";
    const weight = exampleWeight[e] as number;
    if (!(weight >= 0 && weight < Number.POSITIVE_INFINITY)) return "an example weight is not a number";
  }
  return {
    size: n,
    termCount: terms,
    df,
    postingStart,
    postingDocs,
    postingWeights,
    exampleCount,
    exampleOwner,
    exampleSlot,
    exampleWeight,
    exampleStart,
    exampleList,
  };
}

// The checks below run once per start over every posting (157,000 at 1,000 skills), in code the
// engine has not optimised yet: integer tests on int32 words, the cheapest it runs unoptimised.

/** Every value of `values` in [0, bound). */
function allBelow(values: Int32Array, bound: number): boolean {
  for (let i = 0; i < values.length; i++) if ((values[i] as number) >>> 0 >= bound) return false;
  return true;
}

/** Both 16-bit halves of every word below `bound` (a build pads an odd count with 0). */
function pairsBelow(words: Int32Array, bound: number): boolean {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as number;
    if ((word & 0xffff) >= bound || word >>> 16 >= bound) return false;
  }
  return true;
}

/**
 * Every float32 (as its bits) above 0 and finite, as every weight a build gives (scoring
 * counts a skill once by its weight being above 0). Those are the bit patterns 1 … 0x7f7fffff;
 * NaN, infinities, zeros and negatives all fall outside.
 */
function positiveFloats(bits: Int32Array): boolean {
  for (let i = 0; i < bits.length; i++) if (((bits[i] as number) - 1) >>> 0 >= 0x7f7fffff) return false;
  return true;
}

/** `starts` begins at 0, never goes down and ends at `total`. */
function runsOf(starts: Int32Array, total: number): boolean {
  if (starts[0] !== 0 || starts[starts.length - 1] !== total) return false;
  for (let t = 1; t < starts.length; t++) if ((starts[t] as number) < (starts[t - 1] as number)) return false;
  return true;
}

/** `count` float64s from int32 position `at`: a view where the bytes are aligned for one, else a copy. */
function float64s(ints: Int32Array, at: number, count: number): Float64Array {
  const offset = ints.byteOffset + 4 * at;
  if (offset % 8 === 0) return new Float64Array(ints.buffer, offset, count);
  return new Float64Array(ints.buffer.slice(offset, offset + 8 * count));
}

/** The stored layout as the index cache takes it: for the laid-out list only. */
export function storedIndexLayout(
  layout: LexicalLayout,
  listed: readonly LaidOutSkill[],
  vocabulary: Vocabulary,
  tuning: string,
  references: StoredReferences | undefined,
): StoredIndexLayout {
  return {
    vocabulary,
    tuning,
    size: listed.length,
    references,
    holds(skill: Skill, at: number): boolean {
      const laid = listed[at];
      return (
        laid !== undefined &&
        skill.name === laid.name &&
        skill.hash === laid.hash &&
        skill.examples.length === laid.examples
      );
    },
    index: (into: Vocabulary) =>
      into === vocabulary && into.terms.length >= layout.termCount
        ? restoreLexicalIndex(layout, into)
        : undefined,
  };
}
