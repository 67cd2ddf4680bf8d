/**
 * Stage 1's shortcuts against the full computation, on generated shelves (seeded, so a
 * failure repeats): triggers, name mentions, examples and their near-copies, exclusions,
 * groups, priorities, hidden and role skills, English, Chinese and mixed text, repeated words,
 * messages of 1 to 45 known words, and tunings from a negative threshold to one above 1.
 *
 * - The skip (a skill whose evidence cannot reach `minScore` is not scored) is off when
 *   near-misses are asked for, so the candidates with and without near-misses must be the same.
 * - A message of more than 31 known words sums each skill's coverage per posting instead of
 *   reading it from the words' bits. Padding a message with made-up words known only to a
 *   hidden skill takes it past 31 known words without changing what any visible skill shares
 *   with it; padding it with as many unknown words keeps it under. With familiarity off and
 *   the informative part already full, both must give the same result.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 as random } from "../../test/fixtures/seeded-random.js";
import type { Skill } from "../types.js";
import { createMatcher, type MatcherOptions } from "./matcher.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";
import { testSkill } from "./test-utils/skill.js";

const EVERYDAY = [
  "write",
  "make",
  "help",
  "create",
  "fix",
  "test",
  "query",
  "file",
  "report",
  "email",
  "slow",
  "data",
  "table",
  "deploy",
  "build",
  "review",
  "plan",
  "trip",
  "photo",
  "budget",
  "invoice",
  "letter",
  "code",
  "bug",
  "server",
  "cluster",
  "certificate",
  "rotate",
  "translate",
  "summary",
];
const CHINESE = ["写", "帮", "文章", "测试", "数据", "报告", "翻译", "部署", "发票", "旅行", "邮件", "总结"];
/** Made-up words: no everyday list knows them, so each counts fully. */
const madeUp = (i: number, stem = "qu") =>
  `${stem}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (Math.floor(i / 26) % 26))}x`;

function generatedShelf(rand: () => number, size: number): { skills: Skill[]; vocabulary: string[] } {
  const vocabulary = [...EVERYDAY, ...CHINESE, ...Array.from({ length: 120 }, (_, i) => madeUp(i))];
  const pick = () => vocabulary[Math.floor(rand() * vocabulary.length)] as string;
  const words = (n: number) => Array.from({ length: n }, pick);
  const phrase = (n: number) => {
    const w = words(n);
    // Chinese runs together; English and mixed text take spaces.
    return w.every((x) => CHINESE.includes(x)) ? w.join("") : w.join(" ");
  };
  const skills: Skill[] = [];
  for (let i = 0; i < size; i++) {
    const r = rand();
    skills.push(
      testSkill({
        name: `skill-${madeUp(i, "nm")}-${i}`,
        description: `${phrase(3 + Math.floor(rand() * 12))}.`,
        ...(rand() < 0.3 ? { whenToUse: phrase(2 + Math.floor(rand() * 6)) } : {}),
        triggers: rand() < 0.25 ? [phrase(1 + Math.floor(rand() * 2))] : [],
        exclusions: rand() < 0.15 ? [phrase(1)] : [],
        examples:
          rand() < 0.5
            ? Array.from({ length: 1 + Math.floor(rand() * 3) }, () => phrase(3 + Math.floor(rand() * 6)))
            : [],
        ...(rand() < 0.15 ? { group: `group-${Math.floor(rand() * 4)}` } : {}),
        priority: rand() < 0.2 ? Math.floor(rand() * 3) : 0,
        disableModelInvocation: r < 0.07,
        role: r >= 0.07 && r < 0.1,
        body: rand() < 0.3 ? phrase(10) : "",
      }),
    );
  }
  return { skills, vocabulary };
}

function generatedMessages(
  rand: () => number,
  skills: readonly Skill[],
  vocabulary: readonly string[],
  count: number,
) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
  const messages: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rand();
    const skill = pick(skills);
    if (kind < 0.15 && skill.examples.length > 0) {
      // A near-copy of an example, sometimes with a word more.
      messages.push(rand() < 0.5 ? pick(skill.examples) : `${pick(skill.examples)} ${pick(vocabulary)}`);
      continue;
    }
    if (kind < 0.22) {
      messages.push(`use ${skill.name} for ${pick(vocabulary)}`);
      continue;
    }
    if (kind < 0.3 && skill.triggers.length > 0) {
      messages.push(`${pick(vocabulary)} ${pick(skill.triggers)} ${pick(vocabulary)}`);
      continue;
    }
    const length = 1 + Math.floor(rand() * 45);
    const words = Array.from({ length }, () => (rand() < 0.1 && i > 0 ? "again" : pick(vocabulary)));
    // Repeated words.
    if (rand() < 0.3) words.push(...words.slice(0, 3));
    messages.push(words.join(rand() < 0.2 ? "" : " "));
  }
  return messages;
}

const TUNINGS: MatcherOptions[] = [
  {},
  { minScore: 0 },
  { minScore: -0.5 },
  { minScore: 0.05 },
  { minScore: 0.5 },
  { minScore: 0.99 },
  { minScore: 1 },
  { minScore: 1.5 },
  { exampleMatch: 0.3 },
  { exampleMatch: 0 },
  { nameFloor: 0.1, triggerFloor: 0.1 },
  { familiarity: false, coverageWeight: 0 },
  { loneWordWeight: 0.7, minScore: 0.18 },
  { loneWordWeight: 0, requestVerbs: false },
  { unpairedWeight: 0.8, minScore: 0.18 },
  { unpairedWeight: 0, pairWindow: 1, loneWordWeight: 0.5 },
];

const json = (x: unknown) => JSON.stringify(x);

describe("stage 1's shortcuts against the full computation", () => {
  it("offers the same candidates with and without near-misses, on generated shelves under any tuning", () => {
    let compared = 0;
    let offered = 0;
    for (let seed = 1; seed <= 3; seed++) {
      const rand = random(seed);
      const { skills, vocabulary } = generatedShelf(rand, 20 + Math.floor(rand() * 200));
      const messages = generatedMessages(rand, skills, vocabulary, 30);
      for (const tuning of TUNINGS) {
        const matcher = createMatcher(tuning);
        for (const message of messages)
          for (const call of [{}, { includeHidden: true, limit: 20 }]) {
            const plain = matcher.match(skills, message, call);
            const full = matcher.match(skills, message, { ...call, nearMisses: 1000 });
            expect(json({ ...full, rejected: undefined }), `${seed} ${json(tuning)} ${message}`).toBe(
              json({ ...plain, rejected: undefined }),
            );
            compared++;
            if (plain.candidates.length > 0) offered++;
          }
      }
    }
    // The probe means something only if most answers offer something and some do not.
    expect(offered).toBeGreaterThan(compared / 3);
    expect(offered).toBeLessThan(compared);
  });

  it("offers the same candidates with and without near-misses on the everyday shelf with semantic vectors absent", () => {
    const shelf = everydayShelf();
    const rand = random(99);
    const vocabulary = [...EVERYDAY, ...CHINESE, "headline", "标题", "compelling", "passport"];
    const messages = generatedMessages(rand, shelf, vocabulary, 100);
    for (const tuning of TUNINGS) {
      const matcher = createMatcher(tuning);
      for (const message of messages) {
        // A vector without prepared skill vectors leaves no semantic signal: the skip stays on.
        const plain = matcher.match(shelf, message, { vector: [1, 0, 0] });
        const full = matcher.match(shelf, message, { nearMisses: 1000 });
        expect(json({ ...full, rejected: undefined }), `${json(tuning)} ${message}`).toBe(
          json({ ...plain, rejected: undefined }),
        );
      }
    }
  });

  it("scores a message past 31 known words as one under it, at 31, 32, 33 and 45 known words", () => {
    let walkedLong = 0;
    for (let seed = 11; seed <= 13; seed++) {
      const rand = random(seed);
      const { skills, vocabulary } = generatedShelf(rand, 30 + Math.floor(rand() * 120));
      const padWords = Array.from({ length: 45 }, (_, i) => madeUp(i, "pd"));
      const padSkill = testSkill({
        name: "pad-holder",
        description: `${padWords.join(" ")}.`,
        disableModelInvocation: true,
      });
      const shelf = [...skills, padSkill];
      // Made-up words no skill uses: unknown, as informative as the pad words, and filling the
      // informative part so the pad words cannot add to it.
      const unknown = (n: number, stem: string) => Array.from({ length: n }, (_, i) => madeUp(i, stem));
      const matcher = createMatcher({ familiarity: false });
      const known = (message: string) =>
        new Set(message.split(/\s+/).filter((w) => vocabulary.includes(w) || w === "again")).size;
      for (const message of generatedMessages(rand, skills, vocabulary, 50)) {
        const distinct = known(message);
        if (distinct > 31) continue;
        const base = `${message} ${unknown(4, "zz").join(" ")}`;
        for (const total of [31, 32, 33, 45]) {
          const pads = Math.max(0, total - distinct);
          const walked = `${base} ${padWords.slice(0, pads).join(" ")}`;
          const masked = `${base} ${unknown(pads, "un").join(" ")}`;
          for (const call of [{}, { nearMisses: 5 }]) {
            expect(json(matcher.match(shelf, walked, call)), `${seed} ${total} ${walked}`).toBe(
              json(matcher.match(shelf, masked, call)),
            );
          }
          if (distinct + pads > 31) walkedLong++;
        }
      }
    }
    expect(walkedLong).toBeGreaterThan(100);
  });
});
