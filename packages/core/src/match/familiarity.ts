/**
 * How familiar a request is to the shelf, judged against the shelf's own examples.
 *
 * A skill's `examples` are requests its author expects, and a request for one of the shelf's
 * skills is mostly made of words the shelf knows. An out-of-scope request ("can i mix
 * antifreeze with water" on a shelf of banking and travel skills) is mostly made of words no
 * skill uses, and matches a skill on a word or two by chance. So a request's known share —
 * the everyday informativeness (everyday-words.ts) of its words some skill uses, over that of
 * all its words, so an unknown "tell" weighs little and an unknown "antifreeze" fully — is
 * compared with what the shelf's own examples reach when each is held out and read as a new
 * request: the share of its words that another example or another skill also uses.
 *
 * The reference is the share that all but the least familiar {@link REFERENCE_QUANTILE} of
 * the examples reach: a request as familiar as the shelf's examples keeps its evidence; one
 * less familiar than almost all of them keeps it in proportion (familiarity = share ÷
 * reference, at most 1). It never adds evidence, so it can only turn a candidate into a
 * near-miss, never the reverse. Learned from the shelf alone, for 20 skills or 10,000, in any
 * script the tokenizer reads. Only skills that have examples are judged this way (their
 * examples say what their requests look like), and a shelf without examples has no reference:
 * its skills keep their evidence.
 *
 * Held out from the index as it is: a word of the example counts as known when another skill
 * uses it or another example holds it. A word only this example and its own skill's other
 * fields use counts as unknown, which lowers the reference a little (a milder judgement),
 * never raises it.
 */
import { everydayInformativeness } from "./everyday-words.js";
import type { LexicalIndex } from "./lexical-index.js";

/** Share of the shelf's examples allowed to be less familiar than the reference. */
export const REFERENCE_QUANTILE = 0.1;

/**
 * The reference known share of `index`'s shelf (0 when it has no examples: no reference).
 * `everyday` weighs a word by its everyday informativeness (1 for every word when off).
 */
export function referenceKnownShare(index: LexicalIndex, everyday: boolean): number {
  const count = index.exampleCount;
  if (count === 0) return 0;
  const known = new Float64Array(count);
  const all = new Float64Array(count);
  const { exampleStart, exampleList, df, terms } = index;
  for (let t = 0; t < index.termCount; t++) {
    const start = exampleStart[t] as number;
    const end = exampleStart[t + 1] as number;
    if (start === end) continue;
    const term = terms[t] as string;
    const weight = everyday ? everydayInformativeness(term, term) : 1;
    const knownElsewhere = (df[t] as number) >= 2 || end - start >= 2;
    for (let i = start; i < end; i++) {
      const e = exampleList[i] as number;
      all[e] = (all[e] as number) + weight;
      if (knownElsewhere) known[e] = (known[e] as number) + weight;
    }
  }
  const shares: number[] = [];
  for (let e = 0; e < count; e++)
    if ((all[e] as number) > 0) shares.push((known[e] as number) / (all[e] as number));
  if (shares.length === 0) return 0;
  shares.sort((a, b) => a - b);
  return shares[Math.floor(REFERENCE_QUANTILE * shares.length)] as number;
}

/** A request's familiarity, 0‥1: its known share over the reference (1 without a reference). */
export function familiarity(knownShare: number, reference: number): number {
  return reference > 0 ? Math.min(1, knownShare / reference) : 1;
}
