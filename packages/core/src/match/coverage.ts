/**
 * How much of a message a skill's lexical evidence explains, and which words are generic.
 *
 * Overlap is not evidence: "How do I write a compelling headline?" shares "write" with a
 * test-writing skill, but "compelling headline", the part that says what is asked, is
 * explained by nothing on that skill. So each message word gets an informativeness learned
 * from the shelf itself — its idf over the skills, in units of a word only one skill uses
 * (1 = one skill uses it; → 0 as every skill does) — and the request is for the shelf only
 * when one skill's evidence, discounted by the share of the message's informative part that
 * its matched words cover, still reaches the threshold ({@link coveredScore}). Because the
 * unit is relative to the shelf, a word used by a quarter of 20 skills and one used by 1 % of
 * 10,000 weigh about the same, in any script the tokenizer reads.
 *
 * Coverage is the request's judgement, not a skill's score: a skill's score is its evidence
 * alone ({@link evidenceScore}). Once the request is for the shelf, a second skill that
 * explains less of it is still ranked by what it shares with it; discounting it as well only
 * pushed right answers below the threshold (measured in bench/RESULTS.md).
 *
 * The shelf only knows its own words, and a small shelf takes a common word one skill happens
 * to use for a distinctive one. So each word's informativeness is also capped by how common
 * it is in everyday language (everyday-words.ts, `everydayWords`): a word no skill uses counts
 * as much as it says in general ("tell" little, "passport" fully: the shelf cannot explain
 * it), and a known word counts the lesser of its shelf and everyday informativeness.
 * The informative part is capped at `informativePart` words' worth, so a long, detailed
 * request is not punished for its detail, only a short one for its unexplained core.
 *
 * The verbs a request is framed with ("help", "make", "write", "写", "帮") are generic on every
 * shelf (request-verbs.ts). And, off by default (`loneWordWeight`), a skill that matched one
 * telling word of the request while another telling word the shelf knows is not its ("when do
 * classes start" → jump-start on "start") can be given weak support when the request is
 * judged: on the dev splits it moved the trade-off little and lowered the threshold the
 * choice rule picks, which small shelves pay for (bench/RESULTS.md). Word positions are the
 * same kind of option (`unpairedWeight`, off): a skill none of whose matched request words
 * stand together in one sentence of its texts (word-pairs.ts) keeps only part of its evidence
 * when the request is judged; at equal recall it abstains a little more often, but it does not
 * reach the default's none-accuracy at the default's recall (bench/RESULTS.md).
 */
import { everydayInformativeness } from "./everyday-words.js";
import type { LexicalIndex } from "./lexical-index.js";

export interface CoverageTuning {
  /** Exponent of the coverage discount when the request is judged (0 = evidence alone, as BM25). */
  coverageWeight: number;
  /** Weight of a message word no skill uses (times its everyday informativeness, or 1 without `everydayWords`). */
  unknownWordWeight: number;
  /** Cap each word's informativeness by how common it is in everyday English or Chinese (everyday-words.ts). */
  everydayWords: boolean;
  /** The informative part of a message, in words one skill uses: coverage is measured against at most this. */
  informativePart: number;
  /** A word whose informativeness is below this is generic on this shelf (never evidence on its own). */
  genericWord: number;
  /** The verbs a request is framed with ("help", "make", "write", "写", "帮") count as generic (request-verbs.ts). */
  requestVerbs: boolean;
  /**
   * When the request is judged, the share of its evidence a skill keeps when it matched one
   * non-generic word of the request and another the request holds is not its (1 = off).
   */
  loneWordWeight: number;
  /**
   * When the request is judged, the share of its evidence a skill keeps when no two of the
   * request words it matched stand near each other in one of its texts (word-pairs.ts; 1 = off).
   */
  unpairedWeight: number;
  /** How many terms apart (stop words aside) two words may stand in a skill's sentence to count as a pair. */
  pairWindow: number;
}

export const DEFAULT_COVERAGE_TUNING: CoverageTuning = {
  coverageWeight: 0.25,
  unknownWordWeight: 1,
  everydayWords: true,
  informativePart: 4,
  genericWord: 0.4,
  requestVerbs: true,
  loneWordWeight: 1,
  unpairedWeight: 1,
  pairWindow: 3,
};

/** A known term's informativeness on this shelf, 0‥1: its idf over the idf of a word one skill uses. */
export function informativeness(index: LexicalIndex, id: number): number {
  return Math.min(1, (index.idf[id] as number) / index.uniqueIdf);
}

/** A message term's everyday informativeness (1 when `everydayWords` is off). */
export function everyday(term: string, tuning: CoverageTuning): number {
  return tuning.everydayWords ? everydayInformativeness(term) : 1;
}

/**
 * The message's informative mass: its known words' informativeness plus its unknown words'
 * (`unknown` = their summed everyday informativeness), capped.
 */
export function queryInformativeMass(
  known: readonly number[],
  unknown: number,
  tuning: CoverageTuning,
): number {
  let mass = unknown * tuning.unknownWordWeight;
  for (const info of known) mass += info;
  return Math.min(mass, tuning.informativePart);
}

/** A skill's lexical score, 0‥1: its evidence (in units of a fully matched word one skill uses), squashed as x / (1 + x). */
export function evidenceScore(evidence: number): number {
  return evidence > 0 ? evidence / (evidence + 1) : 0;
}

/**
 * The evidence's score once discounted by how much of the message it leaves unexplained,
 * 0‥1: evidence times coverage^weight, squashed as {@link evidenceScore}. `covered` is the
 * informativeness of the message words the skill matched, `mass` the message's
 * ({@link queryInformativeMass}).
 */
export function coveredScore(
  evidence: number,
  covered: number,
  mass: number,
  tuning: CoverageTuning,
): number {
  if (evidence <= 0 || mass <= 0) return 0;
  const coverage = Math.min(1, covered / mass);
  return evidenceScore(evidence * coverage ** tuning.coverageWeight);
}
