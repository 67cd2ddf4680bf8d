/**
 * A trigger is the author saying "this message is for me": its skill is always a candidate
 * (matcher.ts), so the request it matched is for the shelf whatever the threshold, unless an
 * exclusion vetoes it.
 */
import { describe, expect, it } from "vitest";
import { createMatcher } from "./matcher.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";

describe("a trigger and the request's judgement", () => {
  it("offers the triggered skill even when the threshold is above its score", () => {
    for (const minScore of [0.21, 0.75, 0.9, 1]) {
      const result = createMatcher({ minScore }).match(everydayShelf(), "I hit a merge conflict again");
      expect(result.candidates[0]?.name, `minScore ${minScore}`).toBe("git-helper");
      expect(result.candidates[0]?.reasons.some((r) => r.kind === "trigger")).toBe(true);
    }
  });

  it("offers nothing when the triggered skill is vetoed and nothing else passes", () => {
    const shelf = everydayShelf().map((skill) =>
      skill.name === "git-helper" ? { ...skill, exclusions: ["again"] } : skill,
    );
    const result = createMatcher({ minScore: 0.9 }).match(shelf, "I hit a merge conflict again");
    expect(result.candidates).toEqual([]);
    expect(result.vetoed.map((v) => v.name)).toContain("git-helper");
  });
});
