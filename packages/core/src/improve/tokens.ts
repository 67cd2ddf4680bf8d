/**
 * A token estimate for growth limits: good enough to tell "grew by a paragraph" from "grew
 * by a chapter", with no tokenizer dependency. Latin text runs about four characters per
 * token; CJK and other wide scripts about one character per token, so they count as one.
 */
const WIDE = /[\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFF00-\uFFEF\u{20000}-\u{3FFFF}]/gu;

export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  const rest = text.replace(WIDE, "").replace(/\s+/g, " ").trim().length;
  return wide + Math.ceil(rest / 4);
}
