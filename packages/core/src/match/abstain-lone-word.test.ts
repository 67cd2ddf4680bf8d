import { describe, expect, it } from "vitest";
import { createMatcher } from "./matcher.js";
import { testSkill } from "./test-utils/skill.js";

// "start" is a core word of jump-start (in most of its examples), "classes" of course-catalog:
// "when do classes start" shares one telling word with each, and each word points elsewhere.
const shelf = [
  testSkill({
    name: "jump-start",
    description: "Jump start a car with a dead battery.",
    examples: [
      "my car will not start",
      "how do i jump start my car",
      "start the car with cables",
      "the car battery is dead and it will not start",
    ],
  }),
  testSkill({
    name: "course-catalog",
    description: "University courses and classes on offer.",
    examples: ["which classes can i take this term", "list the university courses on offer"],
  }),
  testSkill({
    name: "weather",
    description: "Weather forecast: rain, sun and temperature.",
    examples: ["will it rain tomorrow", "what is the temperature outside"],
  }),
];

describe("one word of the request matched while another points elsewhere (`loneWordWeight`)", () => {
  const strict = createMatcher({ loneWordWeight: 0.3 });

  it("is off by default: each lone word still makes a candidate", () => {
    const names = createMatcher()
      .match(shelf, "when do classes start")
      .candidates.map((c) => c.name);
    expect(names).toEqual(["jump-start", "course-catalog"]);
  });

  it("when set, offers nothing on lone words, and says why", () => {
    const result = strict.match(shelf, "when do classes start", { nearMisses: 3 });
    expect(result.candidates).toEqual([]);
    expect(result.rejected).toEqual([
      expect.objectContaining({ name: "jump-start", reason: "lone-word", terms: ["start"] }),
      expect.objectContaining({ name: "course-catalog", reason: "lone-word", terms: ["classes"] }),
    ]);
    for (const miss of result.rejected ?? []) expect(miss.score).toBeLessThan(strict.tuning.minScore);
  });

  it("leaves a skill that matched two of the request's telling words, or its only one, as it was", () => {
    const off = createMatcher();
    for (const message of ["my car will not start this morning", "how do i jump start my car", "start"])
      expect(strict.match(shelf, message), message).toEqual(off.match(shelf, message));
  });

  it("judges the request, not the ranking: a request it lets through keeps its candidates' scores", () => {
    // jump-start matched two telling words and admits the request; weather, on "rain" alone, is
    // still ranked by its evidence.
    const message = "will the car start in the rain";
    const off = createMatcher().match(shelf, message);
    const on = strict.match(shelf, message);
    expect(on.candidates.map((c) => c.name)).toEqual(["jump-start", "weather"]);
    expect(on).toEqual(off);
  });
});
