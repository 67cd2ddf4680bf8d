import fs from "node:fs";
import path from "node:path";
import { sharedData, skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { analyze } from "./tokenize.js";
import { longWordHash, sharedVocabulary, Vocabulary } from "./vocabulary.js";

const DATA = sharedData();

/** The terms `vocabulary.read` yields for `text`, as strings. */
function read(vocabulary: Vocabulary, text: string): string[] {
  const count = vocabulary.read(text);
  return Array.from(vocabulary.ids.subarray(0, count), (id) => vocabulary.terms[id] as string);
}

function corpusTexts(): string[] {
  const corpus = path.join(DATA, "skills-corpus");
  const manifest = fs.readFileSync(path.join(corpus, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
  return manifest
    .map((line) => line.split("\t")[0] as string)
    .filter((file) => /(^|\/)skill\.md$/i.test(file))
    .map((file) => fs.readFileSync(path.join(corpus, file), "utf8").slice(0, 6_000));
}

function edgeCaseTexts(): string[] {
  const dir = path.join(DATA, "parser-edge-cases");
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
}

const TRICKY = [
  "Running the deployments",
  "FinanceTool PDFReader gpt4 iOS getHTTPResponseCode XMLHttpRequest",
  "café naïve Ünïcödé ŞİMDİ İstanbul ΟΔΟΣ straße",
  "ＲＵＮ ＴＥＳＴＳ ｶﾀｶﾅ ﬁle ①②③",
  "e\u0301te\u0301 a\u0308 n\u0303",
  "帮我写一篇关于人工智能的文章",
  "東京の天気を教えてください。明日の予定も確認したいです。",
  "用React写组件 and run tests，然后写文章",
  "react组件 组件react 漢\u0301字 ー々",
  "🚀deploy🔥now ✅ done → next ─── │ ├──",
  "\ud800abc\udc00 lone\ud83d surrogates",
  "𠀀𠀁 test 𝗲𝘅𝗮𝗺𝗽𝗹𝗲 𝐁𝐨𝐥𝐝",
  "v2.0.1 x86_64 3000ms 1e10 0x1F",
  "don't it's I'm we've they'll",
  "abcdefg abcdefgh abcdefghi abcdefghij supercalifragilisticexpialidocious internationalization",
  "Test TEST test tEsT TeSt tests testing tested",
  "The THE Deploy DEPLOY Deploying API Api api GPT4 gpt4 Gpt4 iOS IOS ios HTTPServer httpserver",
  // NFKC across ASCII: marks composing with the letter or separator before them, compatibility
  // forms turning into ASCII letters inside a word, and at a text's very start.
  "=\u0338 a<\u0338b x>\u0338y a\u0301b x -\u0301y caf\u00e9s cafe\u0301s",
  "\u0301abc \u0301 \u0338= abcＤＥＦghi of\uFB01ce ﬁ ＡＢＣ-ｄｅｆ x²y H₂O ½cup ™",
  "end of text with a mark e\u0301",
  "abc𝐀def abc\ud800def 𠀀abc abc𠀀 x\u00a0y x\u2014y don\u2019t",
  `${"a".repeat(64)} ${"b".repeat(65)} ${"Ab".repeat(32)} ${"x".repeat(8)} ${"Y".repeat(9)}`,
  "",
  "   ",
  "a",
  "Z9",
];

/** Strings drawn from an alphabet that mixes every class the reader tells apart. */
function fuzzTexts(count: number): string[] {
  const alphabet = [
    ..."abcxyzABCXYZ0189 -_.,;:'\"/\\()[]{}\n\t",
    "é",
    "Ü",
    "ß",
    "İ",
    "Σ",
    "ς",
    "\u0301",
    "\u0308",
    "文",
    "章",
    "写",
    "の",
    "テ",
    "ー",
    "々",
    "，",
    "。",
    "Ａ",
    "ｂ",
    "ﬁ",
    "①",
    "🚀",
    "𠀀",
    "𝗲",
    "\ud800",
    "\udc00",
    "\u00a0",
    "—",
  ];
  let seed = 42;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  return Array.from({ length: count }, () => {
    const length = next() % 60;
    let text = "";
    for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
    return text;
  });
}

describe("Vocabulary.read", () => {
  it("yields exactly the terms of analyze(), on the real corpus and the parser edge cases", (ctx) => {
    skipWithoutSharedData(ctx);
    const vocabulary = new Vocabulary();
    const texts = [...corpusTexts(), ...edgeCaseTexts()];
    expect(texts.length).toBeGreaterThan(900);
    for (const text of texts) expect(read(vocabulary, text)).toEqual(analyze(text, false).terms);
  });

  it("yields exactly the terms of analyze() on tricky and random text (case, accents, CJK, width, surrogates)", () => {
    const vocabulary = new Vocabulary();
    for (const text of [...TRICKY, ...fuzzTexts(3_000)]) {
      expect(read(vocabulary, text)).toEqual(analyze(text, false).terms);
    }
    // Read again: now every word comes from the vocabulary's table.
    for (const text of TRICKY) expect(read(vocabulary, text)).toEqual(analyze(text, false).terms);
  });

  it("yields exactly the terms of analyze() for a token too long to stem", () => {
    const vocabulary = new Vocabulary();
    const text = `Deploying ${"deploy".repeat(1_700)}ing and ${"Ab".repeat(40)}Ing today`;
    expect(read(vocabulary, text)).toEqual(analyze(text, false).terms);
    expect(read(vocabulary, text)).toContain(`${"deploy".repeat(1_700)}ing`);
  });

  it("keeps every word of several terms apart, past the first few thousand of them", () => {
    // camelCase words stand for several terms each (the word and its parts): thousands of
    // them, met twice, so the second reading comes from the stored emissions.
    const vocabulary = new Vocabulary();
    const text = Array.from(
      { length: 5_000 },
      (_, i) => `Alpha${i}Beta GammaTool${i % 97}x PDFReader${i}`,
    ).join(" ");
    const expected = analyze(text, false).terms;
    expect(read(vocabulary, text)).toEqual(expected);
    expect(read(vocabulary, text)).toEqual(expected);
  });

  it("reads a text of many new CJK runs, segmented together, as analyze() does", () => {
    const vocabulary = new Vocabulary();
    const text =
      "帮我写一篇关于人工智能的文章，然后用React写组件。東京の天気を教えてください！\n数据库迁移 数据库，迁移；コンピューター・ソフト 漢字々 𠀀𠀁 我";
    expect(read(vocabulary, text)).toEqual(analyze(text, false).terms);
    expect(read(vocabulary, `${text} 新的词语`)).toEqual(analyze(`${text} 新的词语`, false).terms);
  });

  it("tells apart long words whose hashes are the same", () => {
    // Birthday search over generated 12-letter words for two with one hash.
    let seed = 7;
    const letter = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return String.fromCharCode(97 + ((seed >>> 16) % 26));
    };
    const byHash = new Map<number, string>();
    let pair: [string, string] | undefined;
    while (pair === undefined) {
      let word = "";
      for (let i = 0; i < 12; i++) word += letter();
      const hash = longWordHash(word);
      const other = byHash.get(hash);
      if (other !== undefined && other !== word) pair = [other, word];
      else byHash.set(hash, word);
    }
    const [first, second] = pair;
    expect(longWordHash(first)).toBe(longWordHash(second));
    const vocabulary = new Vocabulary();
    const text = `${first} ${second} ${first.toUpperCase()} ${second} ${first}`;
    expect(read(vocabulary, text)).toEqual(analyze(text, false).terms);
    expect(read(vocabulary, `${second} ${first}`)).toEqual(analyze(`${second} ${first}`, false).terms);
  });

  it("reads a capitalised word as its lower-case form, and a camelCase word as its parts too", () => {
    const vocabulary = new Vocabulary();
    const ids = (text: string) => Array.from(vocabulary.ids.subarray(0, vocabulary.read(text)));
    expect(ids("Deploy")).toEqual(ids("deploy"));
    expect(ids("DEPLOYING")).toEqual(ids("deploying"));
    expect(ids("The THE")).toEqual([]);
    expect(read(vocabulary, "FinanceTool")).toEqual(["financetool", "financ", "tool"]);
    expect(read(vocabulary, "financetool")).toEqual(["financetool"]);
    expect(read(vocabulary, "GPT4 gpt4")).toEqual(["gpt4", "gpt", "4", "gpt4", "gpt", "4"]);
  });

  it("gives a term one id for good, whatever word it was read from", () => {
    const vocabulary = new Vocabulary();
    vocabulary.read("Deploying deployments");
    const [first, second] = vocabulary.ids.subarray(0, 2);
    expect(first).toBe(second);
    expect(vocabulary.terms[first as number]).toBe("deploy");
    expect(vocabulary.idOf("deploy")).toBe(first);
  });
});

/** The terms `vocabulary.readUtf8` yields for `text` as UTF-8, cut after `maxUnits` units, as strings. */
function readUtf8(vocabulary: Vocabulary, bytes: Buffer, maxUnits: number): string[] {
  const count = vocabulary.readUtf8(bytes, maxUnits);
  return Array.from(vocabulary.ids.subarray(0, count), (id) => vocabulary.terms[id] as string);
}

/** What `readUtf8` must yield: the terms of the decoded text cut after `maxUnits` units. */
function decodedTerms(bytes: Buffer, maxUnits: number): string[] {
  return analyze(bytes.toString("utf8").slice(0, maxUnits), false).terms;
}

describe("Vocabulary.readUtf8", () => {
  it("yields the terms of the decoded text, on the real corpus and the parser edge cases, whole and cut", (ctx) => {
    skipWithoutSharedData(ctx);
    const vocabulary = new Vocabulary();
    const texts = [...corpusTexts(), ...edgeCaseTexts()];
    for (const text of texts) {
      const bytes = Buffer.from(text, "utf8");
      for (const maxUnits of [text.length, 3_000, 1_001]) {
        expect(readUtf8(vocabulary, bytes, maxUnits)).toEqual(decodedTerms(bytes, maxUnits));
      }
    }
  });

  it("yields the terms of the decoded text on tricky and random text, cut anywhere (inside a word, a pair, a stretch)", () => {
    const vocabulary = new Vocabulary();
    for (const text of [...TRICKY, ...fuzzTexts(3_000)]) {
      const bytes = Buffer.from(text, "utf8");
      for (let maxUnits = 0; maxUnits <= text.length + 1; maxUnits += text.length > 40 ? 7 : 1) {
        expect(readUtf8(vocabulary, bytes, maxUnits)).toEqual(decodedTerms(bytes, maxUnits));
      }
    }
  });

  it("reads into the same ids as read(), and words met in one form are known in the other", () => {
    const vocabulary = new Vocabulary();
    const text = `Deploying FinanceTool ${"deploy".repeat(20)}ing café 帮我写一篇文章 internationalization`;
    const ids = (count: number) => Array.from(vocabulary.ids.subarray(0, count));
    const fromText = ids(vocabulary.read(text));
    const words = vocabulary.words;
    expect(ids(vocabulary.readUtf8(Buffer.from(text, "utf8"), text.length))).toEqual(fromText);
    expect(vocabulary.words).toBe(words);
    const other = new Vocabulary();
    const fromBytes = Array.from(
      other.ids.subarray(0, other.readUtf8(Buffer.from(text, "utf8"), text.length)),
    );
    expect(Array.from(other.ids.subarray(0, other.read(text)))).toEqual(fromBytes);
    expect(other.terms).toEqual(vocabulary.terms);
  });
});

describe("sharedVocabulary", () => {
  it("is one vocabulary until it outgrows its bound, then a new one", () => {
    const first = sharedVocabulary();
    expect(sharedVocabulary()).toBe(first);
    first.read("alpha beta gamma delta epsilon");
    const replaced = sharedVocabulary(3);
    expect(replaced).not.toBe(first);
    expect(replaced.words).toBe(0);
    expect(sharedVocabulary()).toBe(replaced);
  });
});

describe("Vocabulary.adoptTerms", () => {
  it("numbers a build's terms as the build did, and reads text into them", () => {
    const built = new Vocabulary();
    const count = built.read("Deploy the release notes to production; deploying releases");
    const expected = Array.from(built.ids.subarray(0, count));
    const vocabulary = new Vocabulary();
    expect(vocabulary.adoptTerms(JSON.parse(JSON.stringify(built.terms)))).toBe(true);
    expect(vocabulary.terms).toEqual(built.terms);
    for (const [id, term] of built.terms.entries()) expect(vocabulary.idOf(term)).toBe(id);
    const again = vocabulary.read("Deploy the release notes to production; deploying releases");
    expect(Array.from(vocabulary.ids.subarray(0, again))).toEqual(expected);
    expect(vocabulary.idOf("kubernetes")).toBe(built.terms.length);
  });

  it("takes nothing into a vocabulary that holds terms, or from a list that repeats one", () => {
    const used = new Vocabulary();
    used.idOf("deploy");
    expect(used.adoptTerms(["releas", "note"])).toBe(false);
    expect(used.terms).toEqual(["deploy"]);
    const vocabulary = new Vocabulary();
    expect(vocabulary.adoptTerms(["releas", "note", "releas", "deploy"])).toBe(false);
    expect(vocabulary.terms).toEqual([]);
    expect(vocabulary.termIds.size).toBe(0);
    expect(vocabulary.idOf("deploy")).toBe(0);
  });
});
