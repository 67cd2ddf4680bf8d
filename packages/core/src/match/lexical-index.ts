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
 */
import type { Skill } from "../types.js";
import { analyze } from "./tokenize.js";

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
/**
 * Only the start of a body is indexed, at a low weight: it is where skills put their
 * overview and routing tables (measured: dotnet dev recall@1 60 → 74 at weight 0.1), and a
 * whole 5,000-token body would dominate the index of a 10,000-skill shelf.
 */
export const BODY_INDEX_CHARS = 3_000;
const FIELDS: readonly FieldName[] = ["name", "description", "whenToUse", "triggers", "examples", "body"];

interface Postings {
  docs: Int32Array;
  /** idf · saturated tf (BM25's tf/(k1+tf), field-weighted): the term's whole contribution to the document. */
  weights: Float32Array;
}

export interface LexicalIndex {
  readonly size: number;
  /** term → id */
  readonly termIds: ReadonlyMap<string, number>;
  readonly terms: readonly string[];
  readonly idf: Float64Array;
  /** idf of a word no skill uses. */
  readonly unseenIdf: number;
  /** idf of a word exactly one skill uses: the unit of the matcher's evidence score. */
  readonly uniqueIdf: number;
  readonly postings: readonly Postings[];
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
  readonly examplePostings: readonly (Int32Array | undefined)[];
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

interface SkillTerms {
  /** Terms of each field, in FIELDS order. */
  fields: string[][];
  /** Terms of each non-empty example, with its position in `examples`. */
  examples: { slot: number; terms: string[] }[];
}

// Analysis is about half of an index build (bodies above all). Caching it per Skill object
// halves a rebuild after one edit but holds ~40 MiB of term arrays at 10,000 skills, so it
// is not cached: bench/RESULTS.md has both numbers.
function analyseSkill(skill: Skill, withBody: boolean): SkillTerms {
  const texts: Record<FieldName, string> = {
    name: skill.name,
    description: withoutNegativeClauses(skill.description),
    whenToUse: withoutNegativeClauses(skill.whenToUse ?? ""),
    triggers: skill.triggers.filter((t) => !t.startsWith("/")).join(" . "),
    examples: skill.examples.join(" . "),
    body: withBody ? skill.body.slice(0, BODY_INDEX_CHARS) : "",
  };
  return {
    fields: FIELDS.map((field) => analyze(texts[field], false).terms),
    examples: skill.examples
      .map((example, slot) => ({ slot, terms: analyze(example, false).terms }))
      .filter((e) => e.terms.length > 0),
  };
}

/** Build the index for `skills` (positions in the index = positions in the array). */
export function buildLexicalIndex(
  skills: readonly Skill[],
  tuning: IndexTuning = DEFAULT_INDEX_TUNING,
): LexicalIndex {
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const idOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      termIds.set(term, id);
      terms.push(term);
    }
    return id;
  };

  // Pass 1: per-document, per-field term frequencies and field lengths.
  const n = skills.length;
  const docFields: Map<number, number>[][] = [];
  const lengths = FIELDS.map(() => new Float64Array(n));
  const exampleTerms: number[][] = [];
  const exampleOwner: number[] = [];
  const exampleSlot: number[] = [];
  for (let d = 0; d < n; d++) {
    const skill = skills[d] as Skill;
    const analysed = analyseSkill(skill, tuning.fields.body > 0);
    const perField: Map<number, number>[] = [];
    analysed.fields.forEach((fieldTerms, f) => {
      const tf = new Map<number, number>();
      for (const term of fieldTerms) {
        const id = idOf(term);
        tf.set(id, (tf.get(id) ?? 0) + 1);
      }
      (lengths[f] as Float64Array)[d] = fieldTerms.length;
      perField.push(tf);
    });
    docFields.push(perField);
    for (const { slot, terms: exampleWords } of analysed.examples) {
      exampleTerms.push([...new Set(exampleWords.map(idOf))]);
      exampleOwner.push(d);
      exampleSlot.push(slot);
    }
  }

  // Pass 2: document frequencies → idf; field-weighted, length-normalised tf → postings.
  const df = new Int32Array(terms.length);
  for (const perField of docFields) {
    const seen = new Set<number>();
    for (const tf of perField) for (const id of tf.keys()) seen.add(id);
    for (const id of seen) (df[id] as number)++;
  }
  const idf = new Float64Array(terms.length);
  for (let t = 0; t < terms.length; t++) idf[t] = bm25Idf(n, df[t] as number);
  const avg = lengths.map((l) => (n === 0 ? 1 : Math.max(1, l.reduce((a, b) => a + b, 0) / n)));

  const postingDocs: number[][] = terms.map(() => []);
  const postingWeights: number[][] = terms.map(() => []);
  const { k1, b } = tuning;
  for (let d = 0; d < n; d++) {
    const combined = new Map<number, number>();
    FIELDS.forEach((field, f) => {
      const weight = tuning.fields[field];
      if (weight === 0) return;
      const norm = 1 - b + (b * (lengths[f] as Float64Array)[d]!) / (avg[f] as number);
      for (const [id, tf] of (docFields[d] as Map<number, number>[])[f] as Map<number, number>) {
        combined.set(id, (combined.get(id) ?? 0) + (weight * tf) / norm);
      }
    });
    for (const [id, tf] of combined) {
      const saturated = tf / (k1 + tf);
      (postingDocs[id] as number[]).push(d);
      (postingWeights[id] as number[]).push((idf[id] as number) * saturated);
    }
  }
  const postings = terms.map((_, t) => ({
    docs: Int32Array.from(postingDocs[t] as number[]),
    weights: Float32Array.from(postingWeights[t] as number[]),
  }));

  // Examples: their own document frequencies (an utterance is a document).
  const exampleCount = exampleTerms.length;
  const exDf = new Int32Array(terms.length);
  for (const ids of exampleTerms) for (const id of ids) (exDf[id] as number)++;
  const exampleIdf = new Float64Array(terms.length);
  for (let t = 0; t < terms.length; t++) exampleIdf[t] = bm25Idf(exampleCount, exDf[t] as number);
  const exLists: number[][] = terms.map(() => []);
  const exampleWeight = new Float64Array(exampleCount);
  exampleTerms.forEach((ids, e) => {
    let sum = 0;
    for (const id of ids) {
      sum += exampleIdf[id] as number;
      (exLists[id] as number[]).push(e);
    }
    exampleWeight[e] = sum;
  });

  return {
    size: n,
    termIds,
    terms,
    idf,
    unseenIdf: bm25Idf(n, 0),
    uniqueIdf: bm25Idf(Math.max(n, 1), 1),
    postings,
    exampleCount,
    exampleOwner: Int32Array.from(exampleOwner),
    exampleSlot: Int32Array.from(exampleSlot),
    exampleWeight,
    exampleIdf,
    exampleUnseenIdf: bm25Idf(exampleCount, 0),
    examplePostings: exLists.map((list) => (list.length > 0 ? Int32Array.from(list) : undefined)),
  };
}
