import { describe, expect, it } from "vitest";
import { referenceFromSkills, referenceKnownShare } from "./familiarity.js";
import { createMatcher, DEFAULT_TUNING } from "./matcher.js";
import { SkillIndexCache } from "./skill-index.js";
import { testSkill } from "./test-utils/skill.js";

// Four skills whose examples are written as their requests are: a request for one of them is
// mostly in words the shelf knows.
const shelf = [
  testSkill({
    name: "car-service",
    description: "Book a service for your car at a garage.",
    examples: [
      "when is my car due for a service",
      "book a service for my car",
      "my car needs an oil change",
      "schedule car maintenance",
      "find a garage for my car",
    ],
  }),
  testSkill({
    name: "car-rental",
    description: "Rent a car for a trip.",
    examples: [
      "rent a car for my trip",
      "i need a rental car in boston",
      "book a car for next week",
      "how much is a car rental",
      "find me a cheap rental car",
    ],
  }),
  testSkill({
    name: "flight-status",
    description: "Is my flight on time?",
    examples: [
      "is my flight on time",
      "when does my flight leave",
      "has my flight been delayed",
      "flight status for my trip",
      "check my flight to boston",
    ],
  }),
  testSkill({
    name: "hotel",
    description: "Book a hotel room.",
    examples: [
      "book a hotel room in boston",
      "find me a hotel for my trip",
      "i need a hotel for next week",
      "how much is a hotel room",
      "book a cheap hotel",
    ],
  }),
];

describe("familiarity: a request judged against the shelf's own examples", () => {
  const unfamiliar = "which garage band won the grammy award";

  it("offers nothing for a request mostly in words the shelf never uses, and says why", () => {
    const result = createMatcher().match(shelf, unfamiliar, { nearMisses: 3 });
    expect(result.candidates).toEqual([]);
    expect(result.rejected).toContainEqual(
      expect.objectContaining({ name: "car-service", reason: "unfamiliar-request", terms: ["garage"] }),
    );
  });

  it("was a candidate on its evidence alone (familiarity: false)", () => {
    const names = createMatcher({ familiarity: false })
      .match(shelf, unfamiliar)
      .candidates.map((c) => c.name);
    expect(names).toEqual(["car-service"]);
  });

  it("keeps requests as familiar as the examples, short ones included", () => {
    const matcher = createMatcher();
    expect(matcher.match(shelf, "find a garage near me").candidates[0]?.name).toBe("car-service");
    expect(matcher.match(shelf, "which garage").candidates[0]?.name).toBe("car-service");
    expect(matcher.match(shelf, "my car needs a service soon").candidates[0]?.name).toBe("car-service");
  });

  it("judges the request, not the skills: a request it lets through keeps every candidate and score", () => {
    // Half of it in words the shelf never uses, but the hotel is plainly asked for: the request
    // is for the shelf, and the garage it also mentions is a candidate on its own evidence,
    // scored as without familiarity (which would otherwise discount every skill alike).
    const message =
      "cheap hotel with a garage near the geysir volcano in iceland for snowmobile photographers";
    const judged = createMatcher().match(shelf, message);
    expect(judged.candidates.map((c) => c.name)).toEqual(["hotel", "car-service"]);
    expect(judged).toEqual(createMatcher({ familiarity: false }).match(shelf, message));
  });

  it("learns its reference from the examples, and has none without them", () => {
    const index = new SkillIndexCache(DEFAULT_TUNING);
    const reference = referenceKnownShare(index.build(shelf).lexical, true);
    expect(reference).toBeGreaterThan(0);
    expect(reference).toBeLessThan(1);
    const bare = shelf.map((skill) => ({ ...skill, examples: [] }));
    expect(referenceKnownShare(new SkillIndexCache(DEFAULT_TUNING).build(bare).lexical, true)).toBe(0);
  });
});

describe("familiarity on a shelf without examples: judged against the skills' own texts", () => {
  // Descriptions only, as most shelves are: the reference is what each description reaches
  // when it is held out and read as a request against the other skills.
  const bare = [
    testSkill({ name: "car-service", description: "Book a service for your car at a garage near you." }),
    testSkill({ name: "car-rental", description: "Rent a car for your trip, near you or at the airport." }),
    testSkill({ name: "flight-status", description: "Check whether your flight is on time or delayed." }),
    testSkill({ name: "flight-booking", description: "Book a flight for your trip." }),
    testSkill({ name: "hotel-booking", description: "Book a hotel room for your trip, near the airport." }),
    testSkill({ name: "train-times", description: "Check train times for your trip." }),
  ];
  const unfamiliar = "which garage band won the grammy award this year";

  it("learns a reference from the descriptions", () => {
    const reference = referenceFromSkills(new SkillIndexCache(DEFAULT_TUNING).build(bare).lexical, true);
    expect(reference).toBeGreaterThan(0);
    expect(reference).toBeLessThan(1);
    expect(
      referenceFromSkills(new SkillIndexCache(DEFAULT_TUNING).build(bare.slice(0, 1)).lexical, true),
    ).toBe(0);
  });

  it("offers nothing for a request mostly in words no skill uses, and says why", () => {
    const result = createMatcher().match(bare, unfamiliar, { nearMisses: 3 });
    expect(result.candidates).toEqual([]);
    expect(result.rejected).toContainEqual(
      expect.objectContaining({ name: "car-service", reason: "unfamiliar-request", terms: ["garage"] }),
    );
    const names = createMatcher({ familiarity: false })
      .match(bare, unfamiliar)
      .candidates.map((c) => c.name);
    expect(names).toEqual(["car-service"]);
  });

  it("keeps requests as familiar as the descriptions, short ones included", () => {
    const matcher = createMatcher();
    expect(matcher.match(bare, "find a garage near me").candidates[0]?.name).toBe("car-service");
    expect(matcher.match(bare, "garage").candidates[0]?.name).toBe("car-service");
    expect(matcher.match(bare, "is my flight delayed").candidates[0]?.name).toBe("flight-status");
  });
});

describe("familiarity is learned from the shelf, at any size", () => {
  const filler = (i: number) =>
    testSkill({
      name: `team-${i}`,
      description: `Weekly report for team ${i} about topic${i}.`,
      examples: [`send the weekly report for team ${i}`, `when is the topic${i} report due`],
    });
  const garage = testSkill({
    name: "car-service",
    description: "Book a service for your car at a garage.",
    examples: ["book a service for my car", "find a garage for my car"],
  });
  for (const size of [20, 2_000]) {
    it(`at ${size} skills: an unfamiliar request is a near-miss, a familiar one a candidate`, () => {
      const skills = [garage, ...Array.from({ length: size - 1 }, (_, i) => filler(i))];
      const matcher = createMatcher();
      const unfamiliar = matcher.match(skills, "which garage band won the grammy award", { nearMisses: 2 });
      expect(unfamiliar.candidates).toEqual([]);
      expect(unfamiliar.rejected?.[0]).toEqual(
        expect.objectContaining({ name: "car-service", reason: "unfamiliar-request" }),
      );
      expect(matcher.match(skills, "find a garage near me").candidates[0]?.name).toBe("car-service");
    });
  }
});

describe("familiarity: one skill cannot set the shelf's reference", () => {
  // A skill file may be hostile: many examples that confirm each other (every word known)
  // would, counted one by one, raise the reference until every other skill's requests read
  // as unfamiliar. Each skill weighs the same in the reference, however many examples it has.
  const flood = testSkill({
    name: "flood",
    description: "Zebra quokka.",
    examples: Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? "zebra quokka" : "quokka zebra")),
  });

  it("keeps the reference a shelf of ordinary skills learns", () => {
    const alone = referenceKnownShare(new SkillIndexCache(DEFAULT_TUNING).build(shelf).lexical, true);
    const flooded = referenceKnownShare(
      new SkillIndexCache(DEFAULT_TUNING).build([...shelf, flood]).lexical,
      true,
    );
    expect(flooded).toBeLessThan(1);
    expect(flooded).toBeLessThanOrEqual(alone + 0.1);
  });
});
