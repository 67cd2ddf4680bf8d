import { describe, expect, it } from "vitest";
import { createMatcher } from "./matcher.js";
import { testSkill } from "./test-utils/skill.js";
import { pairedInSkill, termHash } from "./word-pairs.js";

// "mean" is a core word of meaning-of-life, "start" of jump-start: "what does it mean to have
// equality" and "when do the classes start" each share one word with a skill and nothing it
// says around that word.
const shelf = [
  testSkill({
    name: "meaning-of-life",
    description: "The meaning of life. Philosophy questions.",
    examples: ["what is the meaning of life", "what do you think life means", "tell me the meaning of life"],
  }),
  testSkill({
    name: "jump-start",
    description: "Jump start a car with a dead battery.",
    examples: ["my car will not start", "how do i jump start my car", "the car battery is dead"],
  }),
  testSkill({
    name: "weather",
    description: "Weather forecast: rain, sun and temperature.",
    examples: ["will it rain tomorrow", "what is the temperature outside"],
  }),
];

describe("word pairs: two request words a skill says together (`unpairedWeight`)", () => {
  const strict = createMatcher({ unpairedWeight: 0.3 });

  it("is off by default: a lone core word still makes a candidate", () => {
    const names = createMatcher()
      .match(shelf, "what does it mean to have equality")
      .candidates.map((c) => c.name);
    expect(names).toEqual(["meaning-of-life"]);
  });

  it("when set, offers nothing on a word the skill never says beside another of the request's, and says why", () => {
    const result = strict.match(shelf, "what does it mean to have equality", { nearMisses: 3 });
    expect(result.candidates).toEqual([]);
    expect(result.rejected).toEqual([
      expect.objectContaining({ name: "meaning-of-life", reason: "unpaired-words", terms: ["mean"] }),
    ]);
    for (const miss of result.rejected ?? []) expect(miss.score).toBeLessThan(strict.tuning.minScore);
  });

  it("lets through a request whose words the skill says together, with the scores it had", () => {
    for (const message of ["what's the meaning of life", "my car battery died, jump start it"]) {
      const on = strict.match(shelf, message);
      expect(on.candidates.length, message).toBeGreaterThan(0);
      expect(on, message).toEqual(createMatcher().match(shelf, message));
    }
  });

  it("judges the request, not the ranking: a skill on one word is still ranked below the paired one", () => {
    const message = "will the dead car battery start in the rain";
    const on = strict.match(shelf, message);
    expect(on.candidates.map((c) => c.name)).toEqual(["jump-start", "weather"]);
    expect(on).toEqual(createMatcher().match(shelf, message));
  });
});

describe("pairedInSkill", () => {
  const skill = testSkill({
    name: "pairs",
    description: "Rotate the tyres of a car. Balance sheets are another matter.",
    triggers: ["/tyres?\\s+balance/", "wheel alignment"],
    examples: ["check tyre pressure now"],
  });
  const paired = (a: string, b: string, window = 3) =>
    pairedInSkill(skill, window, [0, 1], [termHash(a), termHash(b)], [1, 1], 0.4);

  it("finds two terms within the window, in either order, in one sentence", () => {
    expect(paired("rotat", "tyre")).toBe(true);
    expect(paired("car", "rotat")).toBe(true);
    expect(paired("wheel", "align")).toBe(true);
    expect(paired("tyre", "pressur")).toBe(true);
    expect(paired("check", "pressur", 1)).toBe(false);
    expect(paired("check", "pressur", 2)).toBe(true);
  });

  it("never pairs across a sentence, a trigger or an example, nor reads a regex trigger", () => {
    expect(paired("car", "balanc")).toBe(false);
    expect(paired("align", "check")).toBe(false);
    expect(paired("tyre", "balanc", 10)).toBe(false);
  });

  it("needs one telling word in the pair, and two words", () => {
    expect(pairedInSkill(skill, 3, [0, 1], [termHash("rotat"), termHash("tyre")], [0.2, 0.3], 0.4)).toBe(
      false,
    );
    expect(pairedInSkill(skill, 3, [0], [termHash("tyre")], [1], 0.4)).toBe(false);
  });
});
