import { describe, expect, it } from "vitest";
import { createMatcher } from "./matcher.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";
import { testSkill } from "./test-utils/skill.js";

const shelf = everydayShelf();
const matcher = createMatcher();
const names = (message: string) => matcher.match(shelf, message).candidates.map((c) => c.name);

describe("stage 1 abstains on generic overlap (20 everyday skills)", () => {
  it("offers nothing on the single word 'write' once the writing skill is vetoed", () => {
    const result = matcher.match(shelf, "How do I write a compelling headline?", { nearMisses: 5 });
    expect(result.vetoed.map((v) => v.name)).toEqual(["writing-coach"]);
    expect(result.candidates).toEqual([]);
    // …and says why the test and SQL skills were not candidates.
    const rejected = result.rejected ?? [];
    for (const name of ["write-tests", "sql-query"]) {
      expect(rejected).toContainEqual(
        expect.objectContaining({ name, reason: "generic-words", terms: ["write"] }),
      );
    }
  });

  it("does not offer write-tests on '写' alone", () => {
    const result = matcher.match(shelf, "怎么写好一篇文章？有什么写作技巧", { nearMisses: 5 });
    expect(result.candidates.map((c) => c.name)).not.toContain("write-tests");
    expect(result.rejected).toContainEqual(expect.objectContaining({ name: "write-tests", terms: ["写"] }));
    // The writing skill, which the request is about, still is one.
    expect(result.candidates[0]?.name).toBe("writing-coach");
  });

  it("still matches on a trigger, a clear lexical match and mixed text", () => {
    expect(names("Can you write unit tests for the date parser?")[0]).toBe("write-tests");
    expect(names("my postgres join is slow, can you optimise it")[0]).toBe("sql-query");
    expect(names("plan a three-day trip to Lisbon with a budget")[0]).toBe("travel-itinerary");
    expect(names("帮我写一封邮件给客户")[0]).toBe("email-draft");
    expect(names("请帮我把这段话翻译成英文")[0]).toBe("translate");
  });

  it("leaves an unrelated question alone", () => {
    expect(names("What's the capital of Australia?")).toEqual([]);
  });

  it("reports near-misses only when asked, best first", () => {
    expect(matcher.match(shelf, "How do I write a compelling headline?").rejected).toBeUndefined();
    const rejected = matcher.match(shelf, "How do I write a compelling headline?", {
      nearMisses: 2,
    }).rejected;
    expect(rejected).toHaveLength(2);
    expect((rejected?.[0]?.score ?? 0) >= (rejected?.[1]?.score ?? 0)).toBe(true);
  });

  it("keeps a name mention a candidate even when its words are generic", () => {
    expect(names("use write-tests here")[0]).toBe("write-tests");
  });
});

describe("generic words are learned from the shelf, at any size", () => {
  // "report" is in every filler skill: generic on both shelves; "invoice" is in one skill.
  const filler = (i: number) =>
    testSkill({ name: `team-${i}`, description: `Weekly report for team ${i} about topic${i}.` });
  const invoices = testSkill({ name: "invoices", description: "Create an invoice report for a customer." });
  for (const size of [20, 2_000]) {
    it(`at ${size} skills: "report" alone is generic, "invoice" is evidence`, () => {
      const skills = [invoices, ...Array.from({ length: size - 1 }, (_, i) => filler(i))];
      const m = createMatcher();
      const generic = m.match(skills, "report", { nearMisses: 3 });
      expect(generic.candidates).toEqual([]);
      expect(generic.rejected?.[0]?.reason).toBe("generic-words");
      expect(m.match(skills, "invoice for ACME").candidates[0]?.name).toBe("invoices");
    });
  }
});

describe("coverage judges the request, not each skill", () => {
  // Evidence alone, no request judgement: what each skill's score is made of.
  const evidenceOnly = createMatcher({ coverageWeight: 0, familiarity: false });

  it("ranks the candidates of a request it lets through by their evidence alone", () => {
    // "meeting notes" covers little of the request for summarize, but the request is for the
    // shelf: summarize keeps the score its evidence gives it.
    for (const message of [
      "translate the meeting notes into Chinese",
      "summarise the meeting notes and draft a follow-up email",
    ]) {
      const judged = matcher.match(shelf, message);
      expect(judged.candidates.length).toBeGreaterThan(1);
      expect(judged).toEqual(evidenceOnly.match(shelf, message));
    }
  });

  it("offers nothing when its one candidate explains little of the request, and says why", () => {
    const message = "which postgres conference in europe has the best talks this year";
    expect(evidenceOnly.match(shelf, message).candidates.map((c) => c.name)).toContain("sql-query");
    const result = matcher.match(shelf, message, { nearMisses: 3 });
    expect(result.candidates).toEqual([]);
    const miss = result.rejected?.find((r) => r.name === "sql-query");
    expect(miss).toEqual(expect.objectContaining({ reason: "below-threshold", terms: ["postgres"] }));
    expect(miss?.score ?? 1).toBeLessThan(matcher.tuning.minScore);
  });
});
