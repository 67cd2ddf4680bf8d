/**
 * A near-miss's reason names what kept it out. `unfamiliar-request` says the request's
 * unfamiliar words did: the same skill would have been a candidate had the request been
 * familiar (the matcher with `familiarity: false`). When its evidence, discounted by the
 * share of the request it leaves unexplained, fails the threshold anyway, the reason is
 * `below-threshold`. Seeded random shelves of made-up words, half of the requests with
 * words no skill uses.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 as random } from "../../test/fixtures/seeded-random.js";
import type { Skill } from "../types.js";
import { createMatcher } from "./matcher.js";
import { madeUpWord as word } from "./test-utils/made-up-words.js";
import { testSkill } from "./test-utils/skill.js";

const UNKNOWN = ["zebra", "lantern", "volcano", "passport", "harbour", "violin"];

describe("near-miss reasons", () => {
  it("calls a near-miss unfamiliar-request only when a familiar request would have offered it", () => {
    let unfamiliar = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const rand = random(seed);
      const vocabulary = 40 + Math.floor(rand() * 300);
      const pick = () => word(Math.floor(rand() * vocabulary));
      const words = (n: number) => Array.from({ length: n }, pick).join(" ");
      const shelf: Skill[] = Array.from({ length: 20 + Math.floor(rand() * 100) }, (_, i) =>
        testSkill({
          name: `s-${i}`,
          description: words(2 + Math.floor(rand() * 20)),
          ...(rand() < 0.4 ? { examples: [words(4), words(5)] } : {}),
        }),
      );
      const matcher = createMatcher();
      const familiarMatcher = createMatcher({ familiarity: false });
      for (let k = 0; k < 150; k++) {
        const unknown = UNKNOWN.slice(0, Math.floor(rand() * UNKNOWN.length)).join(" ");
        const message = `${words(1 + Math.floor(rand() * 8))} ${unknown}`;
        const result = matcher.match(shelf, message, { nearMisses: 100 });
        if (result.candidates.length > 0) continue;
        const offered = new Set(
          familiarMatcher.match(shelf, message, { limit: 1000 }).candidates.map((c) => c.name),
        );
        for (const miss of result.rejected ?? []) {
          if (miss.reason !== "unfamiliar-request") continue;
          unfamiliar++;
          expect(offered.has(miss.name), `seed ${seed}: ${message} — ${miss.name}`).toBe(true);
        }
      }
    }
    expect(unfamiliar).toBeGreaterThan(50);
  });

  it("calls a near-miss lone-word only when the matcher without that rule would have offered it", () => {
    let lone = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const rand = random(seed);
      const vocabulary = 40 + Math.floor(rand() * 300);
      const pick = () => word(Math.floor(rand() * vocabulary));
      const words = (n: number) => Array.from({ length: n }, pick).join(" ");
      const shelf: Skill[] = Array.from({ length: 20 + Math.floor(rand() * 100) }, (_, i) =>
        testSkill({
          name: `s-${i}`,
          description: words(2 + Math.floor(rand() * 20)),
          ...(rand() < 0.4 ? { examples: [words(4), words(5)] } : {}),
        }),
      );
      const matcher = createMatcher({ loneWordWeight: 0.5 });
      const withoutRule = createMatcher();
      for (let k = 0; k < 150; k++) {
        const unknown = UNKNOWN.slice(0, Math.floor(rand() * UNKNOWN.length)).join(" ");
        const message = `${words(1 + Math.floor(rand() * 8))} ${unknown}`;
        const result = matcher.match(shelf, message, { nearMisses: 100 });
        if (result.candidates.length > 0) continue;
        const offered = new Set(
          withoutRule.match(shelf, message, { limit: 1000 }).candidates.map((c) => c.name),
        );
        for (const miss of result.rejected ?? []) {
          if (miss.reason !== "lone-word") continue;
          lone++;
          expect(offered.has(miss.name), `seed ${seed}: ${message} — ${miss.name}`).toBe(true);
        }
      }
    }
    expect(lone).toBeGreaterThan(50);
  });
});
