import { describe, expect, it } from "vitest";
import { ownString } from "./own-string.js";

describe("ownString", () => {
  it("gives back the same text, whatever it holds", () => {
    const long = "a description that is longer than a dozen characters";
    const samples = [
      "",
      "short",
      long,
      long.slice(5, 40),
      `Übersicht — ${long}`,
      `emoji 🧪 in a pair, ${long}`,
      `a lone high surrogate \ud83e here, ${long}`,
      `a lone low surrogate \udc00 here, ${long}`,
      `NUL \u0000 and BOM \ufeff, ${long}`,
      "中文技能描述：用于分析微生物基因组数据与代谢通路注释",
    ];
    for (const text of samples) expect(ownString(text)).toBe(text);
  });
});
