import { describe, expect, it } from "vitest";
import type { Skill } from "../types.js";
import {
  buildLexicalIndex,
  DEFAULT_INDEX_TUNING,
  knownTerm,
  type LexicalIndex,
  readSkillTerms,
} from "./lexical-index.js";
import { createMatcher } from "./matcher.js";
import { SkillIndexCache } from "./skill-index.js";
import { testSkill as skill } from "./test-utils/skill.js";
import { sharedVocabulary } from "./vocabulary.js";

const pdf = skill({
  name: "pdf-tools",
  description: "Extract tables and text from PDF documents.",
  triggers: ["extract pdf"],
  examples: ["pull the tables out of this pdf"],
  body: "# PDF tools\nUse pdfplumber for tables.",
});
const deploy = skill({
  name: "deploy-prod",
  description: "Deploy the application to production with the release checklist.",
  exclusions: ["staging"],
});
const weather = skill({ name: "tokyo-weather", description: "東京の天気予報を調べる。Weather forecast." });

/** A hot reload after one SKILL.md was edited: a new Skill object, the others unchanged. */
function edited(original: Skill, fields: Partial<Skill>): Skill {
  return { ...original, ...fields, hash: `${original.hash}-edited` };
}

function termKnown(index: LexicalIndex, term: string): boolean {
  return knownTerm(index, index.termIds.get(term));
}

/** The parts of an index that scoring reads, as plain arrays. */
function contents(index: LexicalIndex) {
  return {
    size: index.size,
    df: Array.from(index.df),
    postingStart: Array.from(index.postingStart),
    postingDocs: Array.from(index.postingDocs),
    postingWeights: Array.from(index.postingWeights),
    exampleOwner: Array.from(index.exampleOwner),
    exampleSlot: Array.from(index.exampleSlot),
    exampleWeight: Array.from(index.exampleWeight),
    exampleStart: Array.from(index.exampleStart),
    exampleList: Array.from(index.exampleList),
  };
}

describe("SkillIndexCache (incremental rebuilds)", () => {
  it("re-reads only new and edited skills, reuses the others, and forgets removed ones", () => {
    const cache = new SkillIndexCache(DEFAULT_INDEX_TUNING);
    const first = cache.build([pdf, deploy, weather]);
    expect([first.analysed, first.reused]).toEqual([3, 0]);
    expect(termKnown(first.lexical, "pdfplumber")).toBe(true);

    // pdf-tools edited, tokyo-weather removed, a new skill added.
    const pdf2 = edited(pdf, {
      description: "Extract tables and text from scanned invoices.",
      body: "# Invoice tools\nUse camelot for tables.",
    });
    const lint = skill({ name: "lint-fix", description: "Fix lint errors with biome." });
    const second = cache.build([pdf2, deploy, lint]);
    expect([second.analysed, second.reused]).toEqual([2, 1]);
    expect(termKnown(second.lexical, "invoic")).toBe(true);
    expect(termKnown(second.lexical, "camelot")).toBe(true);
    // The edited skill's old words, and the removed skill's, are gone from the index.
    expect(termKnown(second.lexical, "pdfplumber")).toBe(false);
    expect(termKnown(second.lexical, "天気")).toBe(false);
    expect(second.lexical.size).toBe(3);

    // An unchanged list (same objects, new array) reads nothing.
    const third = cache.build([pdf2, deploy, lint]);
    expect([third.analysed, third.reused]).toEqual([0, 3]);
  });

  it("builds the same index incrementally as from scratch", () => {
    const cache = new SkillIndexCache(DEFAULT_INDEX_TUNING);
    cache.build([pdf, deploy, weather]);
    const pdf2 = edited(pdf, { description: "Extract tables from PDF and Word documents." });
    const list = [weather, pdf2, deploy];
    const incremental = cache.build(list);
    expect(incremental.reused).toBe(2);
    const fresh = new SkillIndexCache(DEFAULT_INDEX_TUNING).build(list);
    expect(fresh.analysed).toBe(3);
    expect(contents(incremental.lexical)).toEqual(contents(fresh.lexical));
    expect(incremental.rules.map((r) => r.name?.source)).toEqual(fresh.rules.map((r) => r.name?.source));
  });

  it("reads everything again when the shared vocabulary is replaced", () => {
    const cache = new SkillIndexCache(DEFAULT_INDEX_TUNING, 5);
    const vocabulary = sharedVocabulary(5);
    cache.build([pdf, deploy]);
    // The two skills hold far more than 5 words: the next build starts a new vocabulary.
    const again = cache.build([pdf, deploy, weather]);
    expect(sharedVocabulary(5)).not.toBe(vocabulary);
    expect([again.analysed, again.reused]).toEqual([3, 0]);
    expect(termKnown(again.lexical, "pdfplumber")).toBe(true);
  });

  it("counts a word repeated past 16 bits exactly (entries widen rather than wrap)", () => {
    // 70,000 = 65,536 + 4,464: a 16-bit count would read the first as the second.
    const weightOf = (times: number) => {
      const cache = new SkillIndexCache(DEFAULT_INDEX_TUNING);
      const { lexical } = cache.build([skill({ name: "x", description: "zebra ".repeat(times) })]);
      const id = lexical.termIds.get("zebra") as number;
      return lexical.postingWeights[lexical.postingStart[id] as number];
    };
    expect(weightOf(70_000)).not.toBe(weightOf(4_464));
    expect(weightOf(70_000)).toBeGreaterThan(weightOf(4_464) as number);
  });

  it("keeps diagnostics per skill: an edit that fixes a trigger drops its diagnostic", () => {
    const cache = new SkillIndexCache(DEFAULT_INDEX_TUNING);
    const broken = skill({ name: "broken", triggers: ["/(a)\\1/"] });
    expect(cache.build([broken, deploy]).diagnostics.map((d) => d.code)).toEqual(["invalid-trigger"]);
    const fixed = edited(broken, { triggers: ["/a+$/"] });
    expect(cache.build([fixed, deploy]).diagnostics).toEqual([]);
  });
});

describe("createMatcher after a hot reload", () => {
  it("matches the edited skill's new text, never its old text, and never a removed skill", () => {
    const matcher = createMatcher();
    expect(
      matcher.match([pdf, deploy, weather], "extract the tables with pdfplumber").candidates[0]?.name,
    ).toBe("pdf-tools");
    expect(matcher.match([pdf, deploy, weather], "東京の天気").candidates[0]?.name).toBe("tokyo-weather");

    const pdf2 = edited(pdf, { triggers: ["extract invoice"], body: "Use camelot for invoices." });
    const reloaded = [pdf2, deploy];
    expect(matcher.match(reloaded, "extract invoice totals with camelot").candidates[0]?.name).toBe(
      "pdf-tools",
    );
    expect(matcher.match(reloaded, "pdfplumber").candidates).toEqual([]);
    expect(matcher.match(reloaded, "東京の天気").candidates).toEqual([]);
    // Same answers as a matcher that never saw the old list.
    for (const message of ["extract invoice totals with camelot", "deploy to production", "pdf tables"]) {
      expect(matcher.match(reloaded, message)).toEqual(createMatcher().match(reloaded, message));
    }
  });
});

describe("postings past 65,536 skills", () => {
  it("keep every skill's position: 16-bit up to 65,536 skills, 32-bit past that", () => {
    const vocabulary = sharedVocabulary();
    const terms = readSkillTerms(
      skill({ name: "shared-word", description: "zanzibar" }),
      vocabulary,
      DEFAULT_INDEX_TUNING,
    );
    const last = readSkillTerms(
      skill({ name: "last-one", description: "zanzibar quokka" }),
      vocabulary,
      DEFAULT_INDEX_TUNING,
    );
    for (const n of [0x10000, 0x10000 + 1]) {
      const index = buildLexicalIndex([...Array.from({ length: n - 1 }, () => terms), last], vocabulary);
      expect(index.postingDocs).toBeInstanceOf(n <= 0x10000 ? Uint16Array : Int32Array);
      const shared = index.termIds.get("zanzibar") as number;
      const docs = index.postingDocs.subarray(index.postingStart[shared], index.postingStart[shared + 1]);
      expect(docs.length).toBe(n);
      expect(docs[n - 1]).toBe(n - 1);
      const rare = index.termIds.get("quokka") as number;
      expect(
        Array.from(index.postingDocs.subarray(index.postingStart[rare], index.postingStart[rare + 1])),
      ).toEqual([n - 1]);
    }
  });
});
