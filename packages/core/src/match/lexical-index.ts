/**
 * The lexical index behind stage 1: BM25F over each skill's fields (name, description,
 * when_to_use, triggers, examples, and the start of the body at a low weight), plus a second
 * index with one document per `examples` entry (nearest-example similarity).
 *
 * Why our own index rather than a search library: a message must be scored against
 * 10,000 skills in well under 2 ms, with per-word explanations and a score that means the
 * same thing from one message to the next (so "no skill applies" can be a threshold).
 * BM25 term scores only depend on the term and the document, so they are computed once
 * here and stored in flat typed-array postings; a query is then a few array walks.
 * bench/RESULTS.md has the numbers that justify it against wink-bm25-text-search.
 *
 * Each posting stores idf · tf/(k1 + tf), BM25's saturating term frequency over the
 * field-weighted, length-normalised count (BM25F). The matcher turns the sum over the
 * message's words into a 0‥1 score; examples get an idf-weighted Dice overlap per example.
 *
 * Built in two steps so a hot reload is cheap: `readSkillTerms` reads one skill's text into
 * term ids (the expensive part, kept per skill by skill-index.ts), `buildLexicalIndex` lays
 * the whole list out from those parts.
 */
import { indexedBody, indexedBodyUtf8 } from "../load/lazy-body.js";
import type { Skill } from "../types.js";
import type { Vocabulary } from "./vocabulary.js";

export interface IndexTuning {
  /** BM25 k1 (term-frequency saturation). */
  k1: number;
  /** BM25 b (length normalisation), per field. */
  b: number;
  /** Field weights (BM25F): how much one occurrence in each field counts. */
  fields: {
    name: number;
    description: number;
    whenToUse: number;
    triggers: number;
    examples: number;
    body: number;
  };
}

export const DEFAULT_INDEX_TUNING: IndexTuning = {
  k1: 1.2,
  b: 0.75,
  fields: { name: 3, description: 1, whenToUse: 1, triggers: 2, examples: 0.5, body: 0.1 },
};

type FieldName = keyof IndexTuning["fields"];
/*
 * Only the start of a body is indexed, at a low weight, and without its code, URLs and
 * repeated lines (load/indexed-body-text.ts): it is where skills put their overview and
 * routing tables (measured: dotnet dev recall@1 60 → 74 at weight 0.1), and a whole
 * 5,000-token body would dominate the index of a 10,000-skill shelf.
 */
const FIELDS: readonly FieldName[] = ["name", "description", "whenToUse", "triggers", "examples", "body"];
const FIELD_COUNT = FIELDS.length;
const BODY = FIELDS.indexOf("body");

export interface LexicalIndex {
  readonly size: number;
  /** term → id (the vocabulary's: it may hold terms no skill of this index uses; see `df`). */
  readonly termIds: ReadonlyMap<string, number>;
  /** id → term (the vocabulary's). */
  readonly terms: readonly string[];
  /** Terms known when the index was built: ids ≥ this are unknown to it. */
  readonly termCount: number;
  /** Skills using each term (any field): 0 = a term this index does not know. */
  readonly df: Int32Array;
  readonly idf: Float64Array;
  /** idf of a word no skill uses. */
  readonly unseenIdf: number;
  /** idf of a word exactly one skill uses: the unit of the matcher's evidence score. */
  readonly uniqueIdf: number;
  /**
   * Postings, one flat run per term: term t's are `postingStart[t] … postingStart[t + 1]`,
   * skill positions in `postingDocs` (ascending) and in `postingWeights` idf · saturated tf
   * (BM25's tf/(k1+tf), field-weighted): the term's whole contribution to the skill. Skill
   * positions take 16 bits while a shelf has at most 65,536 skills (a quarter of the postings'
   * memory), 32 past that.
   */
  readonly postingStart: Int32Array;
  readonly postingDocs: Uint16Array | Int32Array;
  readonly postingWeights: Float32Array;
  // examples
  readonly exampleCount: number;
  /** Skill position of each example. */
  readonly exampleOwner: Int32Array;
  /** Position of each example in its skill's `examples`. */
  readonly exampleSlot: Int32Array;
  /** Σ idf of each example's distinct terms. */
  readonly exampleWeight: Float64Array;
  readonly exampleIdf: Float64Array;
  readonly exampleUnseenIdf: number;
  /** Examples holding each term: term t's are `exampleStart[t] … exampleStart[t + 1]` of `exampleList`. */
  readonly exampleStart: Int32Array;
  readonly exampleList: Int32Array;
}

/** Is `id` a term some skill of `index` uses? (The vocabulary outlives and outgrows an index.) */
export function knownTerm(index: LexicalIndex, id: number | undefined): id is number {
  return id !== undefined && id < index.termCount && (index.df[id] as number) > 0;
}

function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * "Do not use for UI rendering or CI/CD pipelines." says what a skill is NOT about: its words
 * must not count as evidence FOR the skill. Such clauses are left out of the lexical text,
 * up to the end of the clause (. ; ! or ?) (measured: dotnet dev recall@3 93.0 → 95.3; the explicit
 * `exclusions` field is what vetoes).
 */
const NEGATIVE_CLAUSE =
  /\b(?:do\s+not|don['’]t|never|not)\s+(?:use|for|meant|intended|suitable)\b.*?(?:[.;!?](?=\s|$)|$)/gisu;

export function withoutNegativeClauses(text: string): string {
  return text.replace(NEGATIVE_CLAUSE, " ");
}

/**
 * One skill's part of the index, in term ids of a {@link Vocabulary}: what a rebuild reuses
 * for every skill that did not change. One Int32Array per skill (a typed array costs ~200
 * bytes of bookkeeping besides its data, which at 10,000 skills and nine arrays each was
 * more than the data), laid out as:
 *
 * - header: the counts T, F, E, X (below), WIDE, then `fieldStart` (7) and `lengths` (6);
 * - T terms: the skill's distinct term ids, all fields together (each counts once in
 *   document frequency); a term that occurs only in fields of weight 0 (no posting) as ~id;
 * - F field entries, fields in FIELDS order (field f is entries `fieldStart[f] … fieldStart[f + 1]`):
 *   a distinct term of the field as its position u in the terms and its count c in the
 *   field, packed as u << 16 | c, or (WIDE = 1, a skill with a huge field) as two ints u, c;
 * - X example term ids: each non-empty example's distinct ids, in first-seen order;
 * - E + 1 example starts (example k is ids `start[k] … start[k + 1]`), E example slots
 *   (its position in the skill's `examples`).
 *
 * `lengths[f]` is the number of terms in field f, repeats included (BM25's document length).
 */
export type SkillTerms = Int32Array;

const T = 0;
const F = 1;
const E = 2;
const X = 3;
const WIDE = 4;
const FIELD_START = 5;
const LENGTHS = FIELD_START + FIELD_COUNT + 1;
const HEADER = LENGTHS + FIELD_COUNT;

/** Where the field entries start. */
const entriesAt = (skill: SkillTerms) => HEADER + (skill[T] as number);
/** Where the example ids start. */
const exampleIdsAt = (skill: SkillTerms) =>
  entriesAt(skill) + (skill[F] as number) * ((skill[WIDE] as number) + 1);

/** How many terms the skill's field `f` holds, repeats included. */
export function fieldLength(skill: SkillTerms, f: number): number {
  return skill[LENGTHS + f] as number;
}
/** The term id of the skill's `u`-th distinct term. */
export function skillTerm(skill: SkillTerms, u: number): number {
  const id = skill[HEADER + u] as number;
  return id < 0 ? ~id : id;
}

// Scratch (synchronous, never shared), grown as needed: where each term id sits in the field
// or skill being read (position + 1, 0 = not met), and the skill's entries while it is read.
let fieldAt = new Int32Array(1 << 14);
let skillAt = new Int32Array(1 << 14);
let outTerms = new Int32Array(1 << 12);
let outSlots = new Int32Array(1 << 12);
let outCounts = new Int32Array(1 << 12);
const skillHeader = new Int32Array(HEADER);

function ensureScratch(terms: number, size: number): void {
  if (fieldAt.length < terms) {
    const length = Math.max(terms, fieldAt.length * 2);
    fieldAt = new Int32Array(length);
    skillAt = grownInt32(skillAt, length);
  }
  if (outTerms.length < size) {
    const length = Math.max(size, outTerms.length * 2);
    outTerms = grownInt32(outTerms, length);
    outSlots = grownInt32(outSlots, length);
    outCounts = grownInt32(outCounts, length);
  }
}

function grownInt32(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}

/**
 * Read one skill's fields and examples into term ids of `vocabulary` (field weights say which
 * terms will have a posting; a weight of 0 for the body leaves it unread).
 */
export function readSkillTerms(skill: Skill, vocabulary: Vocabulary, tuning: IndexTuning): SkillTerms {
  const texts = [
    skill.name,
    withoutNegativeClauses(skill.description),
    withoutNegativeClauses(skill.whenToUse ?? ""),
    skill.triggers.filter((t) => !t.startsWith("/")).join(" . "),
    skill.examples.join(" . "),
    "",
  ];
  // The body's indexed text is read from its UTF-8 bytes when a loader kept them, else as text.
  const bodyBytes = tuning.fields.body > 0 ? indexedBodyUtf8(skill) : undefined;
  if (bodyBytes === undefined && tuning.fields.body > 0) texts[BODY] = indexedBody(skill);
  const header = skillHeader.fill(0);
  let distinct = 0;
  let size = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    const count =
      f === BODY && bodyBytes !== undefined
        ? vocabulary.readUtf8(bodyBytes, bodyBytes.length)
        : vocabulary.read(texts[f] as string);
    ensureScratch(vocabulary.terms.length, size + count);
    // The scratch arrays as locals: module variables are read again on every use, and this
    // loop runs once per term of every skill (millions on a large shelf).
    const read = vocabulary.ids;
    const inField = fieldAt;
    const inSkill = skillAt;
    const terms = outTerms;
    const slots = outSlots;
    const counts = outCounts;
    const weighted = tuning.fields[FIELDS[f] as FieldName] !== 0;
    const first = size;
    for (let i = 0; i < count; i++) {
      const id = read[i] as number;
      const at = inField[id] as number;
      if (at !== 0) {
        (counts[first + at - 1] as number)++;
        continue;
      }
      let u = (inSkill[id] as number) - 1;
      if (u < 0) {
        u = distinct++;
        terms[u] = ~id;
        inSkill[id] = distinct;
      }
      if (weighted) terms[u] = id;
      slots[size] = u;
      counts[size] = 1;
      inField[id] = ++size - first;
    }
    for (let i = first; i < size; i++) inField[skillTermOf(terms[slots[i] as number] as number)] = 0;
    header[LENGTHS + f] = count;
    header[FIELD_START + f + 1] = size;
  }
  for (let u = 0; u < distinct; u++) skillAt[skillTermOf(outTerms[u] as number)] = 0;
  // 16 bits are plenty for a term's position and its count in a field; a skill with a huge
  // field keeps them as two ints.
  let most = distinct;
  for (let i = 0; i < size; i++) if ((outCounts[i] as number) > most) most = outCounts[i] as number;
  const wide = most > 0xffff ? 1 : 0;

  // Examples: each one's distinct ids in first-seen order (after the field entries in the scratch).
  const exampleIds: number[] = [];
  const exampleStart = [0];
  const exampleSlot: number[] = [];
  skill.examples.forEach((example, slot) => {
    const count = vocabulary.read(example);
    if (count === 0) return;
    ensureScratch(vocabulary.terms.length, 0);
    const read = vocabulary.ids;
    const first = exampleIds.length;
    for (let i = 0; i < count; i++) {
      const id = read[i] as number;
      if (fieldAt[id] === 0) {
        fieldAt[id] = 1;
        exampleIds.push(id);
      }
    }
    for (let i = first; i < exampleIds.length; i++) fieldAt[exampleIds[i] as number] = 0;
    exampleStart.push(exampleIds.length);
    exampleSlot.push(slot);
  });

  const examples = exampleSlot.length;
  const out = new Int32Array(HEADER + distinct + size * (wide + 1) + exampleIds.length + 2 * examples + 1);
  out.set(header);
  out[T] = distinct;
  out[F] = size;
  out[E] = examples;
  out[X] = exampleIds.length;
  out[WIDE] = wide;
  out.set(outTerms.subarray(0, distinct), HEADER);
  let at = HEADER + distinct;
  for (let i = 0; i < size; i++) {
    if (wide) {
      out[at++] = outSlots[i] as number;
      out[at++] = outCounts[i] as number;
    } else out[at++] = ((outSlots[i] as number) << 16) | (outCounts[i] as number);
  }
  out.set(exampleIds, at);
  out.set(exampleStart, at + exampleIds.length);
  out.set(exampleSlot, at + exampleIds.length + examples + 1);
  return out;
}

/** A term id as stored in a skill's terms (~id when it has no posting). */
function skillTermOf(stored: number): number {
  return stored < 0 ? ~stored : stored;
}

/** Field weights and length norms of one build (BM25F), shared by every skill's pass. */
interface Norms {
  k1: number;
  b: number;
  weights: number[];
  /** Average length of each field. */
  avg: number[];
}

// Per-skill scratch of the build: each term's combined field-weighted frequency.
let combined = new Float64Array(1 << 12);

/**
 * Build the index of skills whose terms were read with `vocabulary` under the same `tuning`
 * (positions in the index = positions in `skills`). Only flat passes over typed arrays: the
 * text was read before. (Each pass is a function called per skill, so the engine optimises
 * it as a whole rather than loop by loop.)
 */
export function buildLexicalIndex(
  skills: readonly SkillTerms[],
  vocabulary: Vocabulary,
  tuning: IndexTuning = DEFAULT_INDEX_TUNING,
): LexicalIndex {
  const n = skills.length;
  const termCount = vocabulary.terms.length;

  // Pass 1: document frequencies, postings per term, total field lengths; example counts.
  const df = new Int32Array(termCount);
  const postingStart = new Int32Array(termCount + 1);
  const exampleStart = new Int32Array(termCount + 1);
  const totalLength = new Float64Array(FIELD_COUNT);
  let widest = 0;
  let exampleCount = 0;
  let exampleIdTotal = 0;
  for (let d = 0; d < n; d++) {
    const skill = skills[d] as SkillTerms;
    countTerms(skill, df, postingStart, exampleStart, totalLength);
    if ((skill[T] as number) > widest) widest = skill[T] as number;
    exampleCount += skill[E] as number;
    exampleIdTotal += skill[X] as number;
  }
  const idf = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) idf[t] = bm25Idf(n, df[t] as number);
  const exampleIdf = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) exampleIdf[t] = bm25Idf(exampleCount, exampleStart[t + 1] as number);
  for (let t = 0; t < termCount; t++) {
    postingStart[t + 1] = (postingStart[t + 1] as number) + (postingStart[t] as number);
    exampleStart[t + 1] = (exampleStart[t + 1] as number) + (exampleStart[t] as number);
  }

  // Pass 2, BM25F: per skill and term, Σ over fields (in order) of weight · tf / length norm,
  // saturated and × idf, written straight into the term's postings (skills in ascending order).
  const norms: Norms = {
    k1: tuning.k1,
    b: tuning.b,
    weights: FIELDS.map((field) => tuning.fields[field]),
    avg: Array.from(totalLength, (total) => (n === 0 ? 1 : Math.max(1, total / n))),
  };
  if (combined.length < widest) combined = new Float64Array(Math.max(widest, combined.length * 2));
  const postings = postingStart[termCount] as number;
  const postingDocs = n <= 0x10000 ? new Uint16Array(postings) : new Int32Array(postings);
  const postingWeights = new Float32Array(postings);
  const fill = postingStart.slice(0, termCount);
  for (let d = 0; d < n; d++)
    addPostings(skills[d] as SkillTerms, d, norms, idf, fill, postingDocs, postingWeights);

  // Examples: their own document frequencies (an utterance is a document).
  const examples: ExampleIndex = {
    list: new Int32Array(exampleIdTotal),
    fill: exampleStart.slice(0, termCount),
    owner: new Int32Array(exampleCount),
    slot: new Int32Array(exampleCount),
    weight: new Float64Array(exampleCount),
    idf: exampleIdf,
  };
  for (let d = 0, e = 0; d < n; d++) e = addExamples(skills[d] as SkillTerms, d, e, examples);

  return {
    size: n,
    termIds: vocabulary.termIds,
    terms: vocabulary.terms,
    termCount,
    df,
    idf,
    unseenIdf: bm25Idf(n, 0),
    uniqueIdf: bm25Idf(Math.max(n, 1), 1),
    postingStart,
    postingDocs,
    postingWeights,
    exampleCount,
    exampleOwner: examples.owner,
    exampleSlot: examples.slot,
    exampleWeight: examples.weight,
    exampleIdf,
    exampleUnseenIdf: bm25Idf(exampleCount, 0),
    exampleStart,
    exampleList: examples.list,
  };
}

/**
 * Pass 1 for one skill: its terms' document frequencies and posting counts, its example
 * terms' counts (at `t + 1`, made into starts afterwards), its field lengths.
 */
function countTerms(
  skill: SkillTerms,
  df: Int32Array,
  postingCount: Int32Array,
  exampleCount: Int32Array,
  totalLength: Float64Array,
): void {
  const end = HEADER + (skill[T] as number);
  for (let i = HEADER; i < end; i++) {
    const stored = skill[i] as number;
    const id = stored < 0 ? ~stored : stored;
    df[id] = (df[id] as number) + 1;
    if (stored >= 0) postingCount[id + 1] = (postingCount[id + 1] as number) + 1;
  }
  for (let i = exampleIdsAt(skill), stop = i + (skill[X] as number); i < stop; i++) {
    const id = skill[i] as number;
    exampleCount[id + 1] = (exampleCount[id + 1] as number) + 1;
  }
  for (let f = 0; f < FIELD_COUNT; f++)
    totalLength[f] = (totalLength[f] as number) + (skill[LENGTHS + f] as number);
}

/** Pass 2 for skill `d`: its BM25F weight for each of its terms, appended to the term's postings. */
function addPostings(
  skill: SkillTerms,
  d: number,
  norms: Norms,
  idf: Float64Array,
  fill: Int32Array,
  postingDocs: Uint16Array | Int32Array,
  postingWeights: Float32Array,
): void {
  const { k1, b, weights, avg } = norms;
  const terms = skill[T] as number;
  const entries = HEADER + terms;
  const wide = (skill[WIDE] as number) === 1;
  const sums = combined;
  sums.fill(0, 0, terms);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const weight = weights[f] as number;
    if (weight === 0) continue;
    const norm = 1 - b + (b * (skill[LENGTHS + f] as number)) / (avg[f] as number);
    const from = skill[FIELD_START + f] as number;
    const to = skill[FIELD_START + f + 1] as number;
    if (wide) {
      for (let i = entries + 2 * from; i < entries + 2 * to; i += 2) {
        const u = skill[i] as number;
        sums[u] = (sums[u] as number) + (weight * (skill[i + 1] as number)) / norm;
      }
    } else {
      for (let i = entries + from; i < entries + to; i++) {
        const entry = skill[i] as number;
        const u = entry >>> 16;
        sums[u] = (sums[u] as number) + (weight * (entry & 0xffff)) / norm;
      }
    }
  }
  for (let u = 0; u < terms; u++) {
    const id = skill[HEADER + u] as number;
    if (id < 0) continue;
    const tf = sums[u] as number;
    const at = fill[id] as number;
    fill[id] = at + 1;
    postingDocs[at] = d;
    postingWeights[at] = (idf[id] as number) * (tf / (k1 + tf));
  }
}

/** The examples' index under construction (see {@link LexicalIndex}). */
interface ExampleIndex {
  list: Int32Array;
  /** Next free place in `list` for each term. */
  fill: Int32Array;
  owner: Int32Array;
  slot: Int32Array;
  weight: Float64Array;
  idf: Float64Array;
}

/** Skill `d`'s examples, numbered from `e`; returns the next example number. */
function addExamples(skill: SkillTerms, d: number, e: number, examples: ExampleIndex): number {
  const count = skill[E] as number;
  if (count === 0) return e;
  const { list, fill, owner, slot, weight, idf } = examples;
  const ids = exampleIdsAt(skill);
  const starts = ids + (skill[X] as number);
  const slots = starts + count + 1;
  for (let k = 0; k < count; k++, e++) {
    owner[e] = d;
    slot[e] = skill[slots + k] as number;
    let sum = 0;
    for (let i = ids + (skill[starts + k] as number); i < ids + (skill[starts + k + 1] as number); i++) {
      const id = skill[i] as number;
      sum += idf[id] as number;
      const at = fill[id] as number;
      fill[id] = at + 1;
      list[at] = e;
    }
    weight[e] = sum;
  }
  return e;
}

/**
 * The term ids a skill's terms refer to (its distinct terms, then its example ids), each
 * passed to `visit`: what a prebuilt shelf needs to carry the vocabulary along.
 */
export function forEachSkillTermId(skill: SkillTerms, visit: (id: number) => void): void {
  for (let i = HEADER; i < HEADER + (skill[T] as number); i++) visit(skillTermOf(skill[i] as number));
  const ids = exampleIdsAt(skill);
  for (let i = ids; i < ids + (skill[X] as number); i++) visit(skill[i] as number);
}

/**
 * `skill` itself when it is a well-formed skill's terms whose ids are all below `termCount`,
 * else undefined: {@link remapSkillTerms} for terms whose ids need no mapping.
 */
export function checkedSkillTerms(
  skill: Int32Array,
  termCount: number,
  exampleCount: number,
): SkillTerms | undefined {
  return wellFormed(skill, termCount, exampleCount) ? skill : undefined;
}

/**
 * A copy of `skill` with every term id replaced by `map[id]`, or undefined when the array is
 * not a well-formed skill's terms or an id falls outside `map` (a prebuilt shelf is input:
 * a bad array must not index out of range later, where typed arrays fail silently).
 */
export function remapSkillTerms(
  skill: Int32Array,
  map: Int32Array,
  exampleCount: number,
): SkillTerms | undefined {
  if (!wellFormed(skill, map.length, exampleCount)) return undefined;
  const out = skill.slice();
  const remap = (id: number) => map[id] as number;
  for (let i = HEADER; i < HEADER + (out[T] as number); i++) {
    const stored = out[i] as number;
    const id = remap(stored < 0 ? ~stored : stored);
    if (id < 0) return undefined;
    out[i] = stored < 0 ? ~id : id;
  }
  const ids = exampleIdsAt(out);
  for (let i = ids; i < ids + (out[X] as number); i++) {
    const id = remap(out[i] as number);
    if (id < 0) return undefined;
    out[i] = id;
  }
  return out;
}

/**
 * Every count, offset and id of `skill` consistent with its length, `termCount` ids and a
 * skill of `exampleCount` examples.
 */
function wellFormed(skill: Int32Array, termCount: number, exampleCount: number): boolean {
  if (skill.length < HEADER) return false;
  const terms = skill[T] as number;
  const entries = skill[F] as number;
  const examples = skill[E] as number;
  const exampleIds = skill[X] as number;
  const wide = skill[WIDE] as number;
  if (terms < 0 || entries < 0 || examples < 0 || exampleIds < 0 || (wide !== 0 && wide !== 1)) return false;
  const expected = HEADER + terms + entries * (wide + 1) + exampleIds + 2 * examples + 1;
  if (skill.length !== expected) return false;
  let previous = 0;
  for (let f = 0; f <= FIELD_COUNT; f++) {
    const start = skill[FIELD_START + f] as number;
    if (start < previous || start > entries || (f === 0 && start !== 0)) return false;
    previous = start;
  }
  if (previous !== entries) return false;
  for (let f = 0; f < FIELD_COUNT; f++) if ((skill[LENGTHS + f] as number) < 0) return false;
  for (let i = HEADER; i < HEADER + terms; i++) {
    const stored = skill[i] as number;
    const id = stored < 0 ? ~stored : stored;
    if (id >= termCount) return false;
  }
  const at = HEADER + terms;
  for (let k = 0; k < entries; k++) {
    const u = wide ? (skill[at + 2 * k] as number) : (skill[at + k] as number) >>> 16;
    const count = wide ? (skill[at + 2 * k + 1] as number) : (skill[at + k] as number) & 0xffff;
    if (u < 0 || u >= terms || count <= 0) return false;
  }
  const ids = exampleIdsAt(skill);
  for (let i = ids; i < ids + exampleIds; i++) {
    const id = skill[i] as number;
    if (id < 0 || id >= termCount) return false;
  }
  const starts = ids + exampleIds;
  if (skill[starts] !== 0 || skill[starts + examples] !== exampleIds || examples > exampleCount) return false;
  for (let k = 0; k < examples; k++) {
    if ((skill[starts + k + 1] as number) < (skill[starts + k] as number)) return false;
    const slot = skill[starts + examples + 1 + k] as number;
    if (slot < 0 || slot >= exampleCount) return false;
  }
  return true;
}

/**
 * The parts of an index that {@link buildLexicalIndex} computes from the whole list, as a
 * prebuilt shelf stores them for the list it was built for; the rest (idf, the unseen and
 * unique idf) is computed from them here, by the same formulas, so a restored index is the
 * one a build would make, value for value.
 */
export interface LexicalLayout {
  size: number;
  /** Terms of the vocabulary the layout was made in (its arrays are this long, the starts one more). */
  termCount: number;
  df: Int32Array;
  postingStart: Int32Array;
  postingDocs: Uint16Array | Int32Array;
  postingWeights: Float32Array;
  exampleCount: number;
  exampleOwner: Int32Array;
  exampleSlot: Int32Array;
  exampleWeight: Float64Array;
  exampleStart: Int32Array;
  exampleList: Int32Array;
}

/** What a build laid out, to be stored (see {@link restoreLexicalIndex}). */
export function lexicalLayout(index: LexicalIndex): LexicalLayout {
  return {
    size: index.size,
    termCount: index.termCount,
    df: index.df,
    postingStart: index.postingStart,
    postingDocs: index.postingDocs,
    postingWeights: index.postingWeights,
    exampleCount: index.exampleCount,
    exampleOwner: index.exampleOwner,
    exampleSlot: index.exampleSlot,
    exampleWeight: index.exampleWeight,
    exampleStart: index.exampleStart,
    exampleList: index.exampleList,
  };
}

/**
 * The index of a stored layout in `vocabulary`, whose first `layout.termCount` terms must be
 * the ones it was laid out with. A vocabulary that has grown since gets what a build would
 * give its later terms: no skill uses them. The layout's bounds are the caller's to check.
 */
export function restoreLexicalIndex(layout: LexicalLayout, vocabulary: Vocabulary): LexicalIndex {
  const n = layout.size;
  const termCount = Math.max(vocabulary.terms.length, layout.termCount);
  const stored = layout.termCount;
  const padded = (array: Int32Array, extra: number, fill: number): Int32Array => {
    if (termCount === stored) return array;
    const out = new Int32Array(termCount + extra);
    out.set(array);
    out.fill(fill, stored + extra);
    return out;
  };
  const df = padded(layout.df, 0, 0);
  const postingStart = padded(layout.postingStart, 1, layout.postingStart[stored] as number);
  const exampleStart = padded(layout.exampleStart, 1, layout.exampleStart[stored] as number);
  // A document frequency is one of a few hundred counts: each count's idf is computed once
  // (the same function of the same numbers, so the same value as a build's).
  const idf = new Float64Array(termCount);
  const idfOf = idfTable(n);
  for (let t = 0; t < termCount; t++) idf[t] = idfOf(df[t] as number);
  const exampleIdf = new Float64Array(termCount);
  const exampleIdfOf = idfTable(layout.exampleCount);
  for (let t = 0; t < termCount; t++)
    exampleIdf[t] = exampleIdfOf((exampleStart[t + 1] as number) - (exampleStart[t] as number));
  return {
    size: n,
    termIds: vocabulary.termIds,
    terms: vocabulary.terms,
    termCount,
    df,
    idf,
    unseenIdf: bm25Idf(n, 0),
    uniqueIdf: bm25Idf(Math.max(n, 1), 1),
    postingStart,
    postingDocs: layout.postingDocs,
    postingWeights: layout.postingWeights,
    exampleCount: layout.exampleCount,
    exampleOwner: layout.exampleOwner,
    exampleSlot: layout.exampleSlot,
    exampleWeight: layout.exampleWeight,
    exampleIdf,
    exampleUnseenIdf: bm25Idf(layout.exampleCount, 0),
    exampleStart,
    exampleList: layout.exampleList,
  };
}

/** `bm25Idf(n, df)`, each df's value computed on first use. */
function idfTable(n: number): (df: number) => number {
  const known = new Float64Array(n + 1).fill(Number.NaN);
  return (df) => {
    if (df > n) return bm25Idf(n, df);
    let value = known[df] as number;
    if (Number.isNaN(value)) {
      value = bm25Idf(n, df);
      known[df] = value;
    }
    return value;
  };
}
