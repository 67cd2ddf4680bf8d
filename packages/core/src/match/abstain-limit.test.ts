/**
 * Whether stage 1 offers anything judges the request, so it must not depend on how many
 * candidates the caller asked for: a request one skill's evidence covers is for the shelf
 * whether the caller wants one candidate or five, even when the best-scoring skill alone
 * explains too little of it. Seeded random shelves of made-up words (some skills with
 * examples, so both familiarity references take part) find such requests.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 as random } from "../../test/fixtures/seeded-random.js";
import type { Skill } from "../types.js";
import { createMatcher } from "./matcher.js";
import { madeUpWord as word } from "./test-utils/made-up-words.js";
import { testSkill } from "./test-utils/skill.js";

describe("stage 1 abstaining", () => {
  it("offers something for a request at any limit or at none, and the same top candidate", () => {
    let differentTop = 0;
    let offered = 0;
    let refused = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rand = random(seed);
      const vocabulary = 40 + Math.floor(rand() * 300);
      const pick = () => word(Math.floor(rand() * vocabulary));
      const words = (n: number) => Array.from({ length: n }, pick).join(" ");
      const shelf: Skill[] = Array.from({ length: 20 + Math.floor(rand() * 100) }, (_, i) =>
        testSkill({
          name: `s-${i}`,
          description: words(2 + Math.floor(rand() * 20)),
          ...(rand() < 0.3 ? { examples: [words(4)] } : {}),
          ...(rand() < 0.1 ? { group: "g" } : {}),
        }),
      );
      const matcher = createMatcher();
      for (let k = 0; k < 150; k++) {
        const message = `${words(1 + Math.floor(rand() * 8))}${rand() < 0.5 ? " zebra lantern volcano" : ""}`;
        const tops = [1, 2, 5, 50].map(
          (limit) => matcher.match(shelf, message, { limit }).candidates[0]?.name,
        );
        if (tops[3] === undefined) refused++;
        else offered++;
        if (new Set(tops).size > 1) {
          differentTop++;
          expect(tops, `seed ${seed}: ${message}`).toEqual([tops[3], tops[3], tops[3], tops[3]]);
        }
      }
    }
    expect(differentTop).toBe(0);
    expect(offered).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });
});
