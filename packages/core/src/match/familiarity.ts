/**
 * How familiar a request is to the shelf, judged against what the shelf itself says.
 *
 * A skill's `examples` are requests its author expects, and a request for one of the shelf's
 * skills is mostly made of words the shelf knows. An out-of-scope request ("can i mix
 * antifreeze with water" on a shelf of banking and travel skills) is mostly made of words no
 * skill uses, and matches a skill on a word or two by chance. So a request's known share —
 * the everyday informativeness (everyday-words.ts) of its words some skill uses, over that of
 * all its words, so an unknown "tell" weighs little and an unknown "antifreeze" fully — is
 * compared with a reference the shelf sets itself:
 *
 * - for a skill with examples, what the shelf's examples reach when each is held out and read
 *   as a new request: the share of its words that another example or another skill also uses
 *   ({@link referenceKnownShare});
 * - for a skill without examples, what the skills' own texts reach when each skill is held
 *   out and read as a request against the rest of the shelf: the share of its words another
 *   skill uses ({@link referenceFromSkills}). A skill's text is written by its author, not by
 *   a user, so this reference is lower (a milder judgement), but it is there on every shelf of
 *   two skills or more, descriptions only or not.
 *
 * Each reference is the share that all but the least familiar {@link REFERENCE_QUANTILE} of
 * its held-out texts reach, every skill weighing the same (a skill's examples share its one
 * vote: a skill file with hundreds of examples that confirm one another would otherwise set
 * the reference alone, and make every other skill's requests read as unfamiliar): a request
 * as familiar as they are keeps its evidence; one less familiar keeps it in proportion
 * (familiarity = share ÷ reference, at most 1). Familiarity is the request's, not a skill's:
 * it decides whether stage 1 offers anything (the request is for the shelf when one candidate
 * still reaches the threshold with its evidence discounted so), not how the candidates rank,
 * and it never adds evidence, so it can turn a request into one with no candidate, never make
 * a skill a candidate its evidence does not. Learned from the shelf alone, for 20 skills or
 * 10,000, in any script the tokenizer reads.
 *
 * Held out from the index as it is: a word of the example counts as known when another skill
 * uses it or another example holds it, a word of a skill when another skill uses it. A word
 * only the held-out text and its own skill's other fields use counts as unknown, which lowers
 * the reference a little (a milder judgement), never raises it.
 */
import { everydayInformativeness } from "./everyday-words.js";
import type { LexicalIndex } from "./lexical-index.js";

/** A term's weight not known ahead of time: {@link everydayInformativeness} is asked. */
const NOT_STORED = -1;

/**
 * Everyday weights known ahead of time for the terms of one vocabulary (`terms`, its term
 * list, which every index built in it shares), by term id: a prebuilt shelf stores them, so the
 * first reference of a process does not stem the everyday lists for every term of the shelf.
 */
export interface StoredEverydayWeights {
  readonly terms: readonly string[];
  readonly weights: Float64Array;
}

/**
 * The stored weights each skill taken from a prebuilt shelf came with. Kept with the skills,
 * not with the vocabulary: the vocabulary is the process's, shared by every shelf in it, and
 * one shelf's file (tampered, or only built from other skills) must never steer another
 * shelf's abstention.
 */
const carried = new WeakMap<object, StoredEverydayWeights>();

/**
 * Weights computed ahead of time for a build's `buildTerms` terms: `pairs` is `[term, weight,
 * …]` in the build's term numbers (every other build term weighs 1), `idOf` gives each build
 * term's id in `terms`' vocabulary (none: the same number). A weight out of [0, 1] is left out (the weight is then
 * computed). A weight is a function of the term alone, so a sound file's are exactly the
 * computed ones; a tampered file's can only steer the abstention of its own shelf.
 */
export function storedEverydayWeights(
  terms: readonly string[],
  buildTerms: number,
  pairs: readonly number[],
  idOf?: (buildTerm: number) => number,
): StoredEverydayWeights {
  // Made on first use: a start whose layout came with its references reads none of them.
  let weights: Float64Array | undefined;
  return {
    terms,
    get weights() {
      weights ??= everydayWeightsByTerm(terms.length, buildTerms, pairs, idOf);
      return weights;
    },
  };
}

function everydayWeightsByTerm(
  termCount: number,
  buildTerms: number,
  pairs: readonly number[],
  idOf: ((buildTerm: number) => number) | undefined,
): Float64Array {
  const weights = new Float64Array(termCount).fill(NOT_STORED);
  const set = (id: number, weight: number) => {
    if (id >= 0 && id < weights.length && weight >= 0 && weight <= 1) weights[id] = weight;
  };
  // Without `idOf` the build's numbers are the vocabulary's (a fresh process): one fill.
  if (idOf === undefined) weights.fill(1, 0, Math.min(buildTerms, weights.length));
  else for (let t = 0; t < buildTerms; t++) set(idOf(t), 1);
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const t = pairs[i] as number;
    if (Number.isSafeInteger(t) && t >= 0 && t < buildTerms) set(idOf ? idOf(t) : t, pairs[i + 1] as number);
  }
  return weights;
}

/** Marks `skill` as one of the shelf whose prebuilt file gave `weights`. */
export function carryEverydayWeights(skill: object, weights: StoredEverydayWeights): void {
  carried.set(skill, weights);
}

/**
 * The stored weights for an index of `skills`: those their prebuilt shelf gave, when they came
 * from one (skills read from their files, built-in ones, carry none). Skills that came with
 * different ones (two shelves' skills matched together) get none: every weight is computed.
 */
export function everydayWeightsOf(skills: readonly object[]): StoredEverydayWeights | undefined {
  let found: StoredEverydayWeights | undefined;
  for (const skill of skills) {
    const weights = carried.get(skill);
    if (weights === undefined || weights === found) continue;
    if (found !== undefined) return undefined;
    found = weights;
  }
  return found;
}

/** Everyday weights of a vocabulary's terms, as a prebuilt shelf stores them: `[term, weight, …]` for each weight below 1. */
export function everydayWeightPairs(terms: readonly string[]): number[] {
  const pairs: number[] = [];
  for (let t = 0; t < terms.length; t++) {
    const weight = everydayInformativeness(terms[t] as string);
    if (weight < 1) pairs.push(t, weight);
  }
  return pairs;
}

/** A reader of term weights for `index`: the `stored` ones where they are for its vocabulary. */
function termWeights(
  index: LexicalIndex,
  everyday: boolean,
  stored: StoredEverydayWeights | undefined,
): (t: number) => number {
  if (!everyday) return () => 1;
  const { terms } = index;
  if (stored?.terms !== terms) return (t) => everydayInformativeness(terms[t] as string);
  const { weights } = stored;
  const storedCount = weights.length;
  return (t) => {
    const weight = t < storedCount ? (weights[t] as number) : NOT_STORED;
    return weight === NOT_STORED ? everydayInformativeness(terms[t] as string) : weight;
  };
}

/** Share of the held-out texts (examples, or skills) allowed to be less familiar than the reference. */
export const REFERENCE_QUANTILE = 0.1;

/**
 * The reference known share of `index`'s shelf (0 when it has no examples: no reference).
 * `everyday` weighs a word by its everyday informativeness (1 for every word when off), taken
 * from `stored` where it has it (see {@link everydayWeightsOf}).
 */
export function referenceKnownShare(
  index: LexicalIndex,
  everyday: boolean,
  stored?: StoredEverydayWeights,
): number {
  const count = index.exampleCount;
  if (count === 0) return 0;
  const known = new Float64Array(count);
  const all = new Float64Array(count);
  const { exampleStart, exampleList, df } = index;
  const weightOf = termWeights(index, everyday, stored);
  for (let t = 0; t < index.termCount; t++) {
    const start = exampleStart[t] as number;
    const end = exampleStart[t + 1] as number;
    if (start === end) continue;
    const weight = weightOf(t);
    const knownElsewhere = (df[t] as number) >= 2 || end - start >= 2;
    for (let i = start; i < end; i++) {
      const e = exampleList[i] as number;
      all[e] = (all[e] as number) + weight;
      if (knownElsewhere) known[e] = (known[e] as number) + weight;
    }
  }
  // Each skill's examples share one vote.
  const { exampleOwner } = index;
  const perOwner = new Float64Array(index.size);
  for (let e = 0; e < count; e++)
    if ((all[e] as number) > 0)
      perOwner[exampleOwner[e] as number] = (perOwner[exampleOwner[e] as number] as number) + 1;
  return quantileShare(known, all, (e) => 1 / (perOwner[exampleOwner[e] as number] as number));
}

/**
 * The reference known share of `index`'s shelf read from its skills' indexed text (0 for a
 * shelf of fewer than two skills: no reference): each skill held out and read as a request,
 * a word known when another skill uses it. One walk over the postings, no text read again.
 */
export function referenceFromSkills(
  index: LexicalIndex,
  everyday: boolean,
  stored?: StoredEverydayWeights,
): number {
  const n = index.size;
  if (n < 2) return 0;
  const known = new Float64Array(n);
  const all = new Float64Array(n);
  const { postingStart, postingDocs, df } = index;
  const weightOf = termWeights(index, everyday, stored);
  for (let t = 0; t < index.termCount; t++) {
    const start = postingStart[t] as number;
    const end = postingStart[t + 1] as number;
    if (start === end) continue;
    const weight = weightOf(t);
    const knownElsewhere = (df[t] as number) >= 2;
    for (let i = start; i < end; i++) {
      const d = postingDocs[i] as number;
      all[d] = (all[d] as number) + weight;
      if (knownElsewhere) known[d] = (known[d] as number) + weight;
    }
  }
  return quantileShare(known, all);
}

/**
 * The known share that all but {@link REFERENCE_QUANTILE} of the texts reach, each text
 * counted `voteOf(text)` times (0 without texts). With one vote each, the share at position
 * ⌊quantile · count⌋ of the sorted shares.
 */
function quantileShare(
  known: Float64Array,
  all: Float64Array,
  voteOf: (text: number) => number = () => 1,
): number {
  const texts: number[] = [];
  let votes = 0;
  for (let i = 0; i < all.length; i++)
    if ((all[i] as number) > 0) {
      texts.push(i);
      votes += voteOf(i);
    }
  if (texts.length === 0) return 0;
  const share = (i: number) => (known[i] as number) / (all[i] as number);
  texts.sort((a, b) => share(a) - share(b));
  // The first text whose votes, with those of every less familiar one, pass the quantile's.
  const below = REFERENCE_QUANTILE * votes * (1 + 1e-12);
  let seen = 0;
  for (const i of texts) {
    seen += voteOf(i);
    if (seen > below) return share(i);
  }
  return share(texts[texts.length - 1] as number);
}

/** A request's familiarity, 0‥1: its known share over the reference (1 without a reference). */
export function familiarity(knownShare: number, reference: number): number {
  return reference > 0 ? Math.min(1, knownShare / reference) : 1;
}
