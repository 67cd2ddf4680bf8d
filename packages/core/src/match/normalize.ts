/**
 * Text normalisation shared by every stage-1 signal (triggers, exclusions, lexical index,
 * examples), so a trigger written one way matches a message written another way.
 *
 * NFKC folds full-width/half-width forms (`ＡＢＣ` → `ABC`, `ｶﾀｶﾅ` → `カタカナ`) and
 * compatibility ligatures (`ﬁ` → `fi`); lower-casing makes matching case-blind. Whitespace
 * runs collapse to one space so phrase positions do not depend on layout.
 */
export function normalizeText(text: string): string {
  return normalizedNfkc(text.normalize("NFKC"));
}

/** {@link normalizeText} of a text already in NFKC (NFKC is idempotent: not applied twice). */
export function normalizedNfkc(nfkc: string): string {
  return nfkc.toLowerCase().replace(/\s+/gu, " ").trim();
}

/**
 * Scripts written without spaces between words (Han, Hiragana, Katakana, the prolonged
 * sound mark and the iteration mark), as a character-class body. Runs of these characters
 * are matched as substrings by triggers and split with `Intl.Segmenter` for lexical terms.
 */
export const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005`;

/** One CJK character. */
export const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, "u");
