// One core build's stage-1 shortcuts against its own full computation on the real routing
// sets (routing-data.ts): every dev and test case, also as a long message (past 31 known
// words), at six tunings, with and without near-misses asked for (the skip of skills whose
// evidence cannot reach minScore is off with them: the candidates must be the same). Then how
// many requests get a different top candidate (or none) at limit 1, 3 and 5.
// Usage: node --experimental-strip-types --no-warnings match-shortcuts.ts <dist/index.js>
import type * as Core from "@skillshelf/core";
import { clinc, dotnet, metatool, metatoolWithForeignNegatives } from "./routing-data.ts";

const build = process.argv[2];
if (!build) throw new Error("usage: match-shortcuts.ts <core dist/index.js>");
const core = (await import(build)) as typeof Core;
const TUNINGS: Core.MatcherOptions[] = [
  {},
  { minScore: 0 },
  { minScore: 0.5 },
  { minScore: 1 },
  { exampleMatch: 0.3 },
  // Word pairs (off by default) only judge the request: the skip must not depend on them.
  { unpairedWeight: 0.8, minScore: 0.18 },
];
let compared = 0;
let differ = 0;
let offered = 0;
let limitCases = 0;
let limitDependent = 0;
for (const set of [metatool(), clinc(), dotnet(), metatoolWithForeignNegatives()]) {
  const cases = [...set.dev, ...set.test];
  for (const tuning of TUNINGS) {
    const matcher = core.createMatcher(tuning);
    // Every case at the defaults, every fifth at the other tunings.
    const step = Object.keys(tuning).length === 0 ? 1 : 5;
    for (let i = 0; i < cases.length; i += step) {
      const message = cases[i]?.message as string;
      const long = [
        message,
        cases[(i * 7 + 1) % cases.length]?.message,
        cases[(i * 13 + 5) % cases.length]?.message,
        message,
      ].join(" ");
      for (const text of [message, long])
        for (const call of [{}, { limit: 20 }]) {
          const plain = matcher.match(set.skills, text, call);
          const full = matcher.match(set.skills, text, { ...call, nearMisses: 1000 });
          compared++;
          if (plain.candidates.length > 0) offered++;
          if (JSON.stringify(plain) === JSON.stringify({ ...full, rejected: undefined })) continue;
          differ++;
          if (differ <= 3) console.log(`differs (${set.name}, ${JSON.stringify(tuning)}): ${text}`);
        }
      if (step === 1) {
        const tops = [1, 3, 5].map(
          (limit) => matcher.match(set.skills, message, { limit }).candidates[0]?.name,
        );
        limitCases++;
        if (new Set(tops).size > 1) limitDependent++;
      }
    }
  }
}
console.log(JSON.stringify({ compared, differ, offered, limitCases, limitDependent }));
