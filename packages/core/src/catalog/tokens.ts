/**
 * Token counting for the catalog budget.
 *
 * The default is an estimate, because an exact count needs a model-specific tokenizer (and
 * its vocabulary files). It is calibrated to be slightly generous for English and honest
 * for Chinese/Japanese, where the usual "characters ÷ 4" rule undercounts three- to
 * four-fold: a CJK character costs about one token (o200k: ~0.75, cl100k: ~1.05).
 * Measured against cl100k/o200k in bench/RESULTS.md ("Routing and matching").
 *
 * For an exact count, pass your tokenizer: `countTokens: (t) => encode(t).length`.
 */
export type CountTokens = (text: string) => number;

// One CJK/Hangul character, or a run of letters, or of digits, or one other visible character.
const WIDE = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const PIECE = new RegExp(
  String.raw`([${WIDE}])|([[\p{L}\p{M}]--[${WIDE}]]+)|(\p{N}+)|([^\s\p{L}\p{N}])`,
  "gv",
);

/** Fast estimate: CJK char ≈ 1, word ≈ 1 + length/8, digits ≈ length/3, symbol ≈ 0.7. */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(PIECE)) {
    if (m[1] !== undefined) tokens += 1;
    else if (m[2] !== undefined) tokens += 1 + Math.floor(m[2].length / 8);
    else if (m[3] !== undefined) tokens += Math.ceil(m[3].length / 3);
    else tokens += 0.7;
  }
  return Math.ceil(tokens);
}
