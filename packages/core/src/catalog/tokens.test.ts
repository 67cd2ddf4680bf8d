import { describe, expect, it } from "vitest";
import { estimateTokens } from "./tokens.js";

describe("estimateTokens", () => {
  it("counts English at roughly a token per short word", () => {
    expect(estimateTokens("Run the project's unit tests")).toBeGreaterThanOrEqual(5);
    expect(estimateTokens("Run the project's unit tests")).toBeLessThanOrEqual(9);
  });

  it("counts a CJK character as about one token (chars/4 would say 3)", () => {
    expect(estimateTokens("帮我写一篇关于人工智能的文章")).toBe(14);
    expect(estimateTokens("東京の天気を教えてください")).toBe(13);
  });

  it("counts mixed text, long words and digits", () => {
    expect(estimateTokens("用React写组件")).toBe(5);
    expect(estimateTokens("internationalization")).toBe(3);
    expect(estimateTokens("123456")).toBe(2);
    expect(estimateTokens("")).toBe(0);
  });
});

/** The estimate as the general path computes it, for any text (the reference the ASCII loop must equal). */
function referenceEstimate(text: string): number {
  const wide = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
  const piece = new RegExp(
    String.raw`([${wide}])|([[\p{L}\p{M}]--[${wide}]]+)|(\p{N}+)|([^\s\p{L}\p{N}])`,
    "gv",
  );
  let tokens = 0;
  for (const m of text.matchAll(piece)) {
    if (m[1] !== undefined) tokens += 1;
    else if (m[2] !== undefined) tokens += 1 + Math.floor(m[2].length / 8);
    else if (m[3] !== undefined) tokens += Math.ceil(m[3].length / 3);
    else tokens += 0.7;
  }
  return Math.ceil(tokens);
}

describe("estimateTokens on ASCII text", () => {
  it("gives exactly what the general path gives, for every ASCII character and random mixes of them", () => {
    for (let c = 0; c < 128; c++) {
      const char = String.fromCharCode(c);
      for (const text of [char, `ab${char}cd`, `${char}${char}12345${char}`])
        expect(estimateTokens(text)).toBe(referenceEstimate(text));
    }
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = "aZ9_- \t\n.,:;()[]{}'\"/\\!?@#$%^&*+=<>|~`\u0000\u001f\u007f";
    for (let i = 0; i < 2000; i++) {
      let text = "";
      const length = Math.floor(random() * 60);
      for (let j = 0; j < length; j++) {
        const pick = random();
        text +=
          pick < 0.5
            ? "abcdefghijklmnopqrstuvwxyzABC"[Math.floor(random() * 29)]
            : pick < 0.65
              ? String(Math.floor(random() * 10))
              : alphabet[Math.floor(random() * alphabet.length)];
      }
      expect(estimateTokens(text)).toBe(referenceEstimate(text));
    }
  });
});
