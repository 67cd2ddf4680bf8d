/**
 * Word positions as evidence: which two words stand near each other in a skill's own texts.
 *
 * Overlap counts words; it cannot tell "what does it mean to have equality" (one word, "mean",
 * shared with meaning-of-life) from "what is the meaning of life" (two words the skill says
 * together). A request's words that a skill also uses side by side — in one sentence of its
 * description, one trigger, one example — are evidence that the request is about what the
 * skill is about; the same words scattered over its texts, or a single word, are the overlap
 * an unrelated request also has. So, when the request is judged (coverage.ts), a skill none of
 * whose matched pairs stands together in its texts keeps only part of its evidence
 * (`unpairedWeight`); it never changes a skill's own score, so it never ranks the skills.
 *
 * The pairs are read from the short fields only — name, description and when_to_use (without
 * their "do not use for …" clauses), each trigger, each example — each cut into sentences:
 * that is where a skill says what it is for, while the start of its body holds routing tables
 * and prose whose neighbours say little. They are read on first need, per Skill object (a
 * skill is a value: an edit makes a new object), so only skills that reach the judgement ever
 * pay for it, and nothing of it is in the index build or in a prebuilt shelf.
 *
 * A pair is two index terms at most `window` terms apart (stop words do not count), in either
 * order, kept as a 32-bit hash in a sorted array: 4 bytes a pair, a binary search a lookup. Two
 * pairs may share a hash (about one in four billion per lookup), which can only keep a skill's
 * full evidence, never take it away.
 */
import type { Skill } from "../types.js";
import { withoutNegativeClauses } from "./lexical-index.js";
import { analyze } from "./tokenize.js";

/** A skill's pair hashes for one window, ascending, no repeats. */
interface SkillPairs {
  window: number;
  keys: Uint32Array;
}

const read = new WeakMap<Skill, SkillPairs>();

/** Sentence ends (Latin and CJK punctuation, line breaks): a pair never spans one. */
const SENTENCE_END = /[.;!?\n\r。！？；]+/u;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** A term's hash (FNV-1a over its UTF-16 code units, mixed). */
export function termHash(term: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), FNV_PRIME);
  return mix(hash);
}

function mix(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x7feb352d);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x846ca68b);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** The hash of two terms' pair, the same in either order. */
export function pairKey(a: number, b: number): number {
  const low = Math.min(a, b);
  const high = Math.max(a, b);
  return mix(Math.imul(low, 0x9e3779b1) ^ high);
}

/** The skill's texts whose neighbouring words are read as pairs, one sentence each. */
function sentencesOf(skill: Skill): string[] {
  const texts = [
    skill.name.replace(/[-_*]/gu, " "),
    withoutNegativeClauses(skill.description),
    withoutNegativeClauses(skill.whenToUse ?? ""),
    // A regex trigger is no text.
    ...skill.triggers.filter((trigger) => !trigger.startsWith("/")),
    ...skill.examples,
  ];
  const out: string[] = [];
  for (const text of texts) for (const sentence of text.split(SENTENCE_END)) if (sentence) out.push(sentence);
  return out;
}

/** Every pair of terms at most `window` apart in one of the skill's sentences, as sorted unique hashes. */
function readPairs(skill: Skill, window: number): Uint32Array {
  const keys: number[] = [];
  const hashes: number[] = [];
  for (const sentence of sentencesOf(skill)) {
    hashes.length = 0;
    for (const term of analyze(sentence, false).terms) hashes.push(termHash(term));
    for (let i = 0; i < hashes.length; i++) {
      const a = hashes[i] as number;
      for (let j = i + 1; j <= i + window && j < hashes.length; j++) {
        const b = hashes[j] as number;
        if (a !== b) keys.push(pairKey(a, b));
      }
    }
  }
  const sorted = Uint32Array.from(keys).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++)
    if (n === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i] as number;
  return sorted.slice(0, n);
}

/** The skill's pairs for `window`, read on first need. */
function pairsOf(skill: Skill, window: number): Uint32Array {
  let pairs = read.get(skill);
  if (pairs === undefined || pairs.window !== window) {
    pairs = { window, keys: readPairs(skill, window) };
    read.set(skill, pairs);
  }
  return pairs.keys;
}

function holds(keys: Uint32Array, key: number): boolean {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = keys[mid] as number;
    if (at === key) return true;
    if (at < key) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/**
 * Whether two of the request's words the skill matched stand within `window` terms of each
 * other in one sentence of its texts. `matched` lists the request words (their term hashes in
 * `hashes`, their informativeness in `info`) the skill matched; a pair counts only when one of
 * its words is telling (informativeness ≥ `telling`): two generic words side by side ("how
 * long") are a phrase of the language, not of the skill.
 */
export function pairedInSkill(
  skill: Skill,
  window: number,
  matched: readonly number[],
  hashes: readonly number[],
  info: readonly number[],
  telling: number,
): boolean {
  if (matched.length < 2) return false;
  const keys = pairsOf(skill, window);
  for (let i = 0; i < matched.length; i++) {
    const a = matched[i] as number;
    for (let j = i + 1; j < matched.length; j++) {
      const b = matched[j] as number;
      if ((info[a] as number) < telling && (info[b] as number) < telling) continue;
      if (holds(keys, pairKey(hashes[a] as number, hashes[b] as number))) return true;
    }
  }
  return false;
}
