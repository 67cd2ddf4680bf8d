import { describe, expect, it } from "vitest";
import {
  everydayWeightPairs,
  referenceFromSkills,
  referenceKnownShare,
  seedEverydayWeights,
} from "./familiarity.js";
import { DEFAULT_TUNING } from "./matcher.js";
import { SkillIndexCache } from "./skill-index.js";
import { testSkill } from "./test-utils/skill.js";
import { sharedVocabulary } from "./vocabulary.js";

const shelf = [
  testSkill({
    name: "car-service",
    description: "Book a service for your car at a garage near you.",
    examples: ["when is my car due for a service", "book a service for my car"],
  }),
  testSkill({ name: "car-rental", description: "Rent a car for your trip, near you or at the airport." }),
  testSkill({ name: "flight-status", description: "Check whether your flight is on time or delayed." }),
  testSkill({
    name: "hotel-booking",
    description: "Book a hotel room for your trip, near the airport.",
    examples: ["book me a hotel room in boston", "find a cheap hotel near the airport"],
  }),
];

/** A new, empty shared vocabulary, as in a fresh process (one past a bound of 0 words). */
function freshVocabulary() {
  sharedVocabulary().read("reset");
  sharedVocabulary(0);
  return sharedVocabulary();
}

function references() {
  const { lexical } = new SkillIndexCache(DEFAULT_TUNING).build(shelf);
  return [referenceFromSkills(lexical, true), referenceKnownShare(lexical, true)];
}

describe("everyday weights stored ahead of time (a prebuilt shelf's)", () => {
  it("give exactly the references computed from the everyday lists", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    const pairs = everydayWeightPairs(terms);
    expect(pairs.length).toBeGreaterThan(0);
    seedEverydayWeights(terms, terms.length, pairs, (t) => t);
    expect(references()).toEqual(computed);
  });

  it("steer the reference when wrong, within [0, 1]", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    // A file that says every term is the most common word.
    seedEverydayWeights(
      terms,
      terms.length,
      terms.flatMap((_, t) => [t, 0]),
      (t) => t,
    );
    const moved = references();
    expect(moved).not.toEqual(computed);
    for (const reference of moved) expect(reference >= 0 && reference <= 1).toBe(true);
  });

  it("ignore a weight out of [0, 1] or a term out of the build's, and never replace weights stored before", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    const pairs = everydayWeightPairs(terms);
    const [first] = pairs as [number];
    const malformed = [first, 5, first, -0.5, first, Number.NaN, terms.length + 3, 0.5, -1, 0.2, 0.5, 0];
    seedEverydayWeights(terms, terms.length, [...pairs, ...malformed], (t) => t);
    // A second file that says every term is the most common word changes nothing stored.
    seedEverydayWeights(
      terms,
      terms.length,
      terms.flatMap((_, t) => [t, 0]),
      (t) => t,
    );
    expect(references()).toEqual(computed);
  });
});
