/**
 * Stage 1 skips work that cannot change its answer: skills whose evidence cannot reach the
 * threshold are not scored unless near-misses are asked for, and a message of up to 31 known
 * words reads each skill's coverage from the words it matched instead of summing it per
 * posting. Both must give the answer the full computation gives.
 */
import { describe, expect, it } from "vitest";
import type { Skill } from "../types.js";
import { createMatcher } from "./matcher.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";
import { testSkill } from "./test-utils/skill.js";

const REQUESTS = [
  "help me write a better intro for my blog post",
  "why is this postgres query slow",
  "write a commit message for these changes",
  "write tests for the parser module and unit test the lexer",
  "tell me about the best passport photo booths near the volcano",
  "帮我润色这篇文章",
  "what is the weather like in reykjavik tomorrow",
  "please write an email to my landlord about the broken heater and ask for a date",
];

/** Made-up words: no everyday list knows them, so each is fully informative. */
const fillerWord = (i: number) =>
  `zorb${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}lax`;

describe("stage 1's shortcuts", () => {
  it("offers the same candidates whether near-misses are asked for or not", () => {
    const shelf = everydayShelf();
    const matcher = createMatcher();
    for (const request of REQUESTS) {
      const plain = matcher.match(shelf, request);
      const withMisses = matcher.match(shelf, request, { nearMisses: 50 });
      expect({ ...withMisses, rejected: undefined }).toEqual({ ...plain, rejected: undefined });
    }
  });

  it("scores a skill the same when its words come past the 31st known word of a message", () => {
    const fillers: Skill[] = Array.from({ length: 60 }, (_, i) =>
      testSkill({ name: `filler-${i}`, description: `Handles ${fillerWord(i)} records.` }),
    );
    const target = testSkill({
      name: "glacier-survey",
      description: "Plan a glacier survey with crevasse maps and moraine sampling.",
    });
    const shelf = [...fillers, target];
    const matcher = createMatcher();
    const scoreOf = (message: string) =>
      matcher.match(shelf, message, { limit: 100 }).candidates.find((c) => c.name === target.name)?.score;
    // Both messages inform more than coverage measures against, so the filler words added to
    // the long one change nothing for the target: only where its words sit in the message.
    const short = `${Array.from({ length: 8 }, (_, i) => fillerWord(i)).join(" ")} glacier crevasse moraine`;
    const long = `${Array.from({ length: 40 }, (_, i) => fillerWord(i)).join(" ")} glacier crevasse moraine`;
    const expected = scoreOf(short);
    expect(expected).toBeGreaterThan(0);
    expect(scoreOf(long)).toBe(expected);
  });
});
