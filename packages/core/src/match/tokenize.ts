/**
 * One analysis pipeline for skills and messages alike: NFKC + lower-case, Latin-script words
 * split on anything that is not a letter or digit and lightly stemmed (Porter2/Snowball: "deploy", "deploying" and "deployment"
 * share a stem, which the original Porter gets wrong), camelCase
 * split into parts as extra terms, and Chinese/Japanese runs segmented with the runtime's
 * own `Intl.Segmenter` (ICU's dictionary ships with Node: nothing to download).
 */
import { stem as porter2 } from "porter2";
import { CJK_CHAR, CJK_CLASS, normalizedNfkc } from "./normalize.js";
import { isStopword } from "./stopwords.js";

/** What stage 1 needs from a piece of text. */
export interface Analysis {
  /** NFKC, lower-cased, whitespace collapsed: what `/regex/` triggers run against. */
  normalized: string;
  /**
   * Phrase-matching form: each Latin word stemmed, each CJK run kept whole, runs joined by
   * one space ("Running the Tests，然后写文章" → "run the test 然后写文章").
   */
  canonical: string;
  /**
   * `canonical`'s words, in order (empty without the canonical form): trigger anchors are
   * looked up by word, and these strings already carry their hash (a stem from the memo),
   * where splitting `canonical` again made new ones.
   */
  canonicalWords: string[];
  /** Index terms: stems, camelCase parts and CJK words, stop words left out. Repeats kept. */
  terms: string[];
  /** The word each term came from (lower-case, unstemmed), for explanations. */
  words: string[];
}

// Runs of CJK (no spaces between words) or of letters/digits of every other script.
// `v`-flag set subtraction keeps a Latin word glued to CJK ("react组件") two runs.
const RUN = new RegExp(String.raw`([${CJK_CLASS}]+)|([[\p{L}\p{N}\p{M}]--[${CJK_CLASS}]]+)`, "gv");
/** A word with camelCase parts ("FinanceTool", "PDFReader", "gpt4"), also read as those parts. */
export const CAMEL = /[a-z][A-Z]|[A-Z]{2}[a-z]|[a-zA-Z]\d|\d[a-zA-Z]/u;
/** The parts of a camelCase word, in order. */
export const CAMEL_PARTS = /[A-Z]{2,}(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/gu;
const ASCII_TEXT = /^[\x00-\x7f]*$/u;
const ASCII_RUN = /[a-zA-Z0-9]+/gu;

// Made on the first CJK text, not at import: ICU's word dictionary costs ≈ 20 ms to load,
// and a shelf of English skills planning an English message never needs it.
let segmenter: Intl.Segmenter | undefined;

/**
 * Version of how text reads into stage-1 terms (this file's analysis: runs, stems, camelCase
 * parts, stop words, CJK words). Terms read ahead of time — a prebuilt shelf's index — are
 * only usable by the same version: bump it whenever a text may read into other terms.
 * 2: stems by the `porter2` package (it differs from wink-porter2-stemmer on a few words,
 * "ieds", "yyyy").
 */
export const STAGE1_TERMS_VERSION = 2;

/**
 * Longest word that is stemmed. Suffix stripping means nothing past English words' lengths (the
 * longest in a dictionary has 45 letters): a longer run of letters is a hash, an encoded blob or
 * noise. Skills and messages go through this one function, so a long token reads the same on
 * both sides and still matches itself exactly. (The stemmer the cap was first set for took
 * time in the square of a word's length: one 10,000-letter token cost over a second.)
 */
export const MAX_STEM_LENGTH = 64;

/**
 * Porter2 (Snowball English) stem of a lower-case word; words of fewer than 3 letters, over
 * {@link MAX_STEM_LENGTH} letters, or with anything but a–z (digits, accents) are kept as they
 * are. No cache: an index build meets each written word once (the vocabulary remembers it),
 * and stemming a word (≈ 1–2 µs on the shared 2-core machine) costs about what finding it in
 * a table of 100,000 words does: compiling the mirror's 8,224 names with their words' stems
 * taken from the vocabulary instead took as long (28 ms) as stemming them.
 */
export function stem(word: string): string {
  const length = word.length;
  if (length < 3 || length > MAX_STEM_LENGTH) return word;
  for (let i = 0; i < length; i++) {
    const code = word.charCodeAt(i);
    if (code < 97 || code > 122) return word;
  }
  return porter2(word);
}

/** Stems of the words messages used lately (bounded: cleared when full). */
const messageStems = new Map<string, string>();
const MESSAGE_STEMS_KEPT = 8192;

/**
 * {@link stem}, remembered for the words of messages: requests reuse a language's common
 * words, and stemming each again was a visible part of stage 1 per message. (Not for the
 * index's texts, whose many distinct words would only churn it.)
 */
function stemOfMessageWord(word: string): string {
  // Kept as written, so never remembered: a hostile message's long words would fill the memo
  // with megabytes (it is bounded in words, not bytes).
  if (word.length < 3 || word.length > MAX_STEM_LENGTH) return word;
  let stemmed = messageStems.get(word);
  if (stemmed === undefined) {
    stemmed = stem(word);
    if (messageStems.size >= MESSAGE_STEMS_KEPT) messageStems.clear();
    messageStems.set(word, stemmed);
  }
  return stemmed;
}

/** @internal How many message words' stems are remembered now (for the memo's bound test). */
export function rememberedMessageStems(): number {
  return messageStems.size;
}

export function containsCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** Words of a CJK run as the segmenter sees them (punctuation is never inside a run). */
export function segmentCjk(run: string): string[] {
  if (run.length === 1) return [run];
  const words: string[] = [];
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  // Walked with `containing` rather than the iterator: the same segments, and the engine's
  // iterator copies ICU's break iterator once more per run (measured on the mirror's 47,000
  // CJK runs: 1.2–1.5× faster, which at a shelf's first index build is tens of ms).
  const segments = segmenter.segment(run);
  for (let at = 0; at < run.length; ) {
    const segment = segments.containing(at) as Intl.SegmentData;
    words.push(segment.segment);
    at = segment.index + segment.segment.length;
  }
  return words;
}

/**
 * The words of each of several CJK runs, as {@link segmentCjk} gives them one by one, from one
 * segmentation of the runs joined by line feeds. A line feed is a hard word boundary (UAX #29,
 * WB3a/WB3b: nothing joins across it) and the dictionary segments each run of CJK characters on
 * its own, so the runs' words are the same; one call instead of one per run is what an index
 * build needs: each call copies ICU's break iterator, which costs time and native memory that
 * stays with the process until a GC frees the copy (≈ 55 MB for the 25,600 runs of a 15,000-file
 * shelf). Should the segments ever not split back into the runs, each run is segmented alone.
 */
export function segmentCjkRuns(runs: readonly string[]): string[][] {
  if (runs.length < 2) return runs.map(segmentCjk);
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  const out: string[][] = [];
  let words: string[] = [];
  let length = 0;
  for (const { segment } of segmenter.segment(runs.join("\n"))) {
    if (segment === "\n") {
      const run = runs[out.length];
      if (run === undefined || length !== run.length) return runs.map(segmentCjk);
      out.push(words);
      words = [];
      length = 0;
      continue;
    }
    words.push(segment);
    length += segment.length;
  }
  out.push(words);
  if (out.length !== runs.length || length !== (runs[runs.length - 1] as string).length)
    return runs.map(segmentCjk);
  return out;
}

/**
 * Appends the index terms of one Latin-script word (a run of letters and digits outside
 * CJK, as written) to `terms`, and the surface word of each to `words`; returns the stem
 * (the word's phrase form). Shared by {@link analyze} and the index's vocabulary, so both
 * read a word the same way.
 */
export function pushWordTerms(
  raw: string,
  terms: string[],
  words: string[],
  stemWord: (word: string) => string = stem,
): string {
  const lower = raw.toLowerCase();
  const stemmed = stemWord(lower);
  if (!isStopword(lower)) {
    terms.push(stemmed);
    words.push(lower);
  }
  // "FinanceTool", "PDFReader", "gpt4" are also found by their parts.
  if (raw.length > 3 && CAMEL.test(raw)) {
    for (const part of raw.match(CAMEL_PARTS) ?? []) {
      const p = part.toLowerCase();
      if (p === lower || isStopword(p)) continue;
      terms.push(stemWord(p));
      words.push(p);
    }
  }
  return stemmed;
}

/**
 * Appends the index terms of one CJK run (its segmenter words, stop words left out); `segments`
 * are its words when they are known already.
 */
export function pushCjkTerms(
  run: string,
  terms: string[],
  words: string[],
  segments = segmentCjk(run),
): void {
  for (const word of segments) {
    if (isStopword(word)) continue;
    terms.push(word);
    words.push(word);
  }
}

/**
 * Analyse `text`. `withCanonical: false` skips the phrase form (skills' long fields only
 * need terms).
 */
export function analyze(text: string, withCanonical = true): Analysis {
  const terms: string[] = [];
  const words: string[] = [];
  const canonical: string[] = [];
  if (ASCII_TEXT.test(text)) {
    // As in canonicalForm: NFKC leaves ASCII as it is, and RUN's words are its letters and
    // digits (no CJK), so neither the normalisation nor the Unicode-set regex is needed.
    ASCII_RUN.lastIndex = 0;
    for (let m = ASCII_RUN.exec(text); m !== null; m = ASCII_RUN.exec(text)) {
      const stemmed = pushWordTerms(m[0], terms, words, withCanonical ? stemOfMessageWord : stem);
      if (withCanonical) canonical.push(stemmed);
    }
    return {
      normalized: withCanonical ? normalizedNfkc(text) : "",
      canonical: canonical.join(" "),
      canonicalWords: canonical,
      terms,
      words,
    };
  }
  const nfkc = text.normalize("NFKC");
  RUN.lastIndex = 0;
  for (let m = RUN.exec(nfkc); m !== null; m = RUN.exec(nfkc)) {
    const cjk = m[1];
    if (cjk !== undefined) {
      if (withCanonical) canonical.push(cjk);
      pushCjkTerms(cjk, terms, words);
    } else {
      const stemmed = pushWordTerms(m[2] as string, terms, words, withCanonical ? stemOfMessageWord : stem);
      if (withCanonical) canonical.push(stemmed);
    }
  }
  return {
    normalized: withCanonical ? normalizedNfkc(nfkc) : "",
    canonical: canonical.join(" "),
    canonicalWords: canonical,
    terms,
    words,
  };
}

/**
 * The phrase form of `text` alone ({@link Analysis.canonical}): what triggers are compiled
 * from, without the terms and the normalised text `analyze` also builds.
 */
export function canonicalForm(text: string): string {
  const canonical: string[] = [];
  if (ASCII_TEXT.test(text)) {
    // NFKC leaves ASCII as it is, and RUN's words are its letters and digits.
    for (const word of text.match(ASCII_RUN) ?? []) canonical.push(stem(word.toLowerCase()));
    return canonical.join(" ");
  }
  const nfkc = text.normalize("NFKC");
  RUN.lastIndex = 0;
  for (let m = RUN.exec(nfkc); m !== null; m = RUN.exec(nfkc)) {
    canonical.push(m[1] ?? stem((m[2] as string).toLowerCase()));
  }
  return canonical.join(" ");
}

/** Index terms of `text` (see {@link Analysis.terms}). */
export function terms(text: string): string[] {
  return analyze(text, false).terms;
}
