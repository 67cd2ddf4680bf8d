import { describe, expect, it } from "vitest";
import { normalizeText } from "./normalize.js";
import {
  analyze,
  canonicalForm,
  MAX_STEM_LENGTH,
  rememberedMessageStems,
  segmentCjk,
  segmentCjkRuns,
  stem,
  terms,
} from "./tokenize.js";

describe("normalizeText", () => {
  it("folds full-width and half-width forms, ligatures and case", () => {
    expect(normalizeText("ＲＵＮ　Ｔｅｓｔｓ ｶﾀｶﾅ ﬁle")).toBe("run tests カタカナ file");
  });
  it("collapses whitespace", () => {
    expect(normalizeText("  a \n\t b  ")).toBe("a b");
  });
});

describe("analyze", () => {
  it("stems Latin words lightly (Porter2) in terms and in the phrase form", () => {
    const a = analyze("Running the deployments");
    expect(a.terms).toEqual(["run", "deploy"]);
    expect(a.canonical).toBe("run the deploy");
    expect(stem("tests")).toBe(stem("testing"));
  });

  it("keeps words with digits as written (a prebuilt shelf's terms depend on it: STAGE1_TERMS_VERSION)", () => {
    expect(terms("python3 2023 gpt4o")).toEqual(["python3", "python", "3", "2023", "gpt4o", "gpt", "4", "o"]);
  });

  it("leaves stop words out of terms but keeps them in phrases", () => {
    const a = analyze("Can you tell me a joke?");
    expect(a.terms).toEqual(["tell", "joke"]);
    expect(a.canonical).toBe("can you tell me a joke");
  });

  it("splits Chinese with Intl.Segmenter, no dictionary download", () => {
    const a = analyze("帮我写一篇关于人工智能的文章");
    expect(a.terms).toContain("文章");
    expect(a.terms).toContain("写");
    expect(a.terms).not.toContain("的");
    expect(a.canonical).toBe("帮我写一篇关于人工智能的文章");
  });

  it("splits Japanese (kana + kanji)", () => {
    const a = analyze("東京の天気を教えてください");
    expect(a.terms).toEqual(expect.arrayContaining(["東京", "天気"]));
    expect(a.terms).not.toContain("の");
  });

  it("handles mixed-language text, Latin glued to CJK included", () => {
    const a = analyze("用React写组件 and run tests");
    expect(a.terms).toEqual(expect.arrayContaining(["react", "run", "test"]));
    expect(a.canonical).toBe("用 react 写组件 and run test");
  });

  it("normalises full-width Latin before stemming", () => {
    expect(terms("ＴＥＳＴＩＮＧ")).toEqual(["test"]);
  });

  it("adds camelCase and letter/digit parts as extra terms", () => {
    expect(terms("FinanceTool")).toEqual(["financetool", "financ", "tool"]);
    expect(terms("PDFReader")).toEqual(["pdfreader", "pdf", "reader"]);
  });

  it("keeps the surface word of each term for explanations", () => {
    const a = analyze("deploying apps");
    expect(a.words).toEqual(["deploying", "apps"]);
  });

  it("reads an ASCII text as the Unicode path does (its shortcut skips NFKC and the set regex)", () => {
    // A trailing em dash is not ASCII and not a word: it sends the same words down the general path.
    for (const text of [
      "Run the PDFReader tests, then deploy   v2 of gpt4-API\tto prod!",
      "  Can you tell me a joke?  ",
      "a_b-c.d e2e X11 don't",
      "",
    ]) {
      const ascii = analyze(text);
      const general = analyze(`${text} —`);
      expect(ascii.terms).toEqual(general.terms);
      expect(ascii.words).toEqual(general.words);
      expect(ascii.canonical).toEqual(general.canonical);
      expect(ascii.canonicalWords).toEqual(general.canonical === "" ? [] : general.canonical.split(" "));
      expect(`${ascii.normalized} —`.trim()).toEqual(general.normalized);
      expect(analyze(text, false).terms).toEqual(ascii.terms);
    }
  });
});

describe("a huge token", () => {
  const huge = `${"deploy".repeat(1_700)}ing`;

  it("is kept as written, not stemmed: only words up to MAX_STEM_LENGTH letters are", () => {
    const longest = `${"ab".repeat((MAX_STEM_LENGTH - 3) / 2)}ing`.padStart(MAX_STEM_LENGTH, "x");
    expect(longest).toHaveLength(MAX_STEM_LENGTH);
    expect(stem(longest)).toBe(longest.slice(0, -3));
    expect(stem(`x${longest}`)).toBe(`x${longest}`);
    expect(huge.length).toBeGreaterThan(10_000);
    expect(stem(huge)).toBe(huge);
  });

  it("reads the same in a skill's phrase and in a message, so it still matches itself", () => {
    const a = analyze(`Deploying ${huge.toUpperCase()} now`);
    expect(a.terms).toEqual(["deploy", huge, "now"]);
    expect(a.canonical).toBe(`deploy ${huge} now`);
    expect(canonicalForm(huge)).toBe(huge);
  });
});

describe("segmentCjkRuns", () => {
  it("gives each run the words segmentCjk gives it alone", () => {
    const runs = [
      "帮我写一篇关于人工智能的文章",
      "東京の天気を教えてください",
      "明日の予定も確認したいです",
      "組件",
      "ー々",
      "漢字",
      "𠀀𠀁",
      "コンピューター",
      "数据库迁移",
      "数据库",
      "我",
    ];
    let seed = 11;
    const alphabet = [..."的是我写文章人工智能东京天気をのテーコン々数据库迁移𠀀"];
    for (let k = 0; k < 200; k++) {
      let run = "";
      const length = 2 + (k % 17);
      for (let i = 0; i < length; i++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        run += alphabet[(seed >>> 16) % alphabet.length];
      }
      runs.push(run);
    }
    expect(segmentCjkRuns(runs)).toEqual(runs.map(segmentCjk));
    expect(segmentCjkRuns(runs.slice(0, 1))).toEqual([segmentCjk(runs[0] as string)]);
    expect(segmentCjkRuns([])).toEqual([]);
  });
});

describe("the message words' stem memo", () => {
  it("remembers no word it leaves unstemmed: hostile long words hold no memory", () => {
    analyze("warm the memo with some ordinary requesting words");
    const before = rememberedMessageStems();
    // 300 distinct megabyte words: remembered, they would pin 300 MB of strings.
    const long = "a".repeat(1 << 20);
    const letters = (i: number) =>
      [...i.toString(26)].map((d) => String.fromCharCode(98 + parseInt(d, 26))).join("");
    for (let i = 0; i < 300; i++) analyze(`${long}${letters(i)} ab`);
    expect(rememberedMessageStems()).toBe(before);
  });

  it("is bounded in words: it never holds more than its limit", () => {
    for (let i = 0; i < 10_000; i++)
      analyze(`word${"x".repeat(i % 40)}q${i.toString(36).replace(/[0-9]/g, "z")}`);
    expect(rememberedMessageStems()).toBeLessThanOrEqual(8192);
    expect(rememberedMessageStems()).toBeGreaterThan(0);
  });
});
