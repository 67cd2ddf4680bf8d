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
