import { describe, expect, it } from "vitest";
import {
  carryEverydayWeights,
  everydayWeightPairs,
  everydayWeightsOf,
  referenceFromSkills,
  referenceKnownShare,
  type StoredEverydayWeights,
  storedEverydayWeights,
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

function references(stored?: StoredEverydayWeights) {
  const { lexical } = new SkillIndexCache(DEFAULT_TUNING).build(shelf);
  return [referenceFromSkills(lexical, true, stored), referenceKnownShare(lexical, true, stored)];
}

describe("everyday weights stored ahead of time (a prebuilt shelf's)", () => {
  it("give exactly the references computed from the everyday lists", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    const pairs = everydayWeightPairs(terms);
    expect(pairs.length).toBeGreaterThan(0);
    expect(references(storedEverydayWeights(terms, terms.length, pairs, (t) => t))).toEqual(computed);
    // The build's numbers taken as they are (a fresh process's vocabulary): the same weights.
    expect(storedEverydayWeights(terms, terms.length, pairs).weights).toEqual(
      storedEverydayWeights(terms, terms.length, pairs, (t) => t).weights,
    );
  });

  it("steer the reference when wrong, within [0, 1]", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    // A file that says every term is the most common word.
    const moved = references(
      storedEverydayWeights(
        terms,
        terms.length,
        terms.flatMap((_, t) => [t, 0]),
        (t) => t,
      ),
    );
    expect(moved).not.toEqual(computed);
    for (const reference of moved) expect(reference >= 0 && reference <= 1).toBe(true);
  });

  it("ignore a weight out of [0, 1] or a term out of the build's", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    const pairs = everydayWeightPairs(terms);
    const [first] = pairs as [number];
    const malformed = [first, 5, first, -0.5, first, Number.NaN, terms.length + 3, 0.5, -1, 0.2, 0.5, 0];
    const stored = storedEverydayWeights(terms, terms.length, [...pairs, ...malformed], (t) => t);
    expect(references(stored)).toEqual(computed);
  });
});

describe("everyday weights another shelf stored", () => {
  it("never move this shelf's references (the vocabulary is the process's, the file is not this shelf's)", () => {
    freshVocabulary();
    const computed = references();
    const { terms } = freshVocabulary();
    new SkillIndexCache(DEFAULT_TUNING).build(shelf);
    // Another shelf's tampered file, opened in the same process: every term the most common word.
    storedEverydayWeights(
      terms,
      terms.length,
      terms.flatMap((_, t) => [t, 0]),
      (t) => t,
    );
    // This shelf's skills came with none.
    expect(references(everydayWeightsOf(shelf))).toEqual(computed);
  });

  it("are used only for the skills that came with them, and none when skills came with different ones", () => {
    const { terms } = freshVocabulary();
    const a = storedEverydayWeights(terms, 0, [], (t) => t);
    const b = storedEverydayWeights(terms, 0, [], (t) => t);
    const [first, second] = [{}, {}];
    expect(everydayWeightsOf([first, second])).toBeUndefined();
    carryEverydayWeights(first, a);
    expect(everydayWeightsOf([first, second])).toBe(a);
    carryEverydayWeights(second, b);
    expect(everydayWeightsOf([first, second])).toBeUndefined();
  });
});
