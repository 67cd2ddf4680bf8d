// Two core builds, every routing case's whole MatchResult: byte-identical or not. For changes
// to stage 1 that must not change what it answers (speed work): each dev and test case of the
// routing sets (routing-data.ts) with four call options (defaults, near-misses, a longer limit,
// hidden skills with many near-misses), and each case again as a long message (past 31 known
// words). Prints the number of results compared, how many differ (the first few are shown) and
// a SHA-256 prefix of each build's results.
// Usage: node --experimental-strip-types --no-warnings match-identity.ts <dist/index.js> <dist/index.js>
import { createHash } from "node:crypto";
import type * as Core from "@skillshelf/core";
import { clinc, dotnet, metatool, metatoolWithForeignNegatives } from "./routing-data.ts";

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: match-identity.ts <core dist/index.js> <core dist/index.js>");
const cores = [(await import(a)) as typeof Core, (await import(b)) as typeof Core];
const OPTIONS: Core.MatchOptions[] = [
  {},
  { nearMisses: 5 },
  { limit: 20 },
  { includeHidden: true, nearMisses: 50 },
];

let compared = 0;
let differ = 0;
const hashes = cores.map(() => createHash("sha256"));
function compare(set: string, results: string[], message: string): void {
  results.forEach((result, k) => {
    hashes[k]?.update(result);
  });
  compared++;
  if (results[0] === results[1]) return;
  differ++;
  if (differ <= 3) console.log(`differs (${set}): ${message}\n  ${results[0]}\n  ${results[1]}`);
}

for (const set of [metatool(), clinc(), dotnet(), metatoolWithForeignNegatives()]) {
  const matchers = cores.map((core) => core.createMatcher());
  const cases = [...set.dev, ...set.test];
  cases.forEach((c, i) => {
    for (const options of OPTIONS)
      compare(
        set.name,
        matchers.map((m) => JSON.stringify(m.match(set.skills, c.message, options))),
        c.message,
      );
    const long = [
      c.message,
      cases[(i * 7 + 1) % cases.length]?.message,
      cases[(i * 13 + 5) % cases.length]?.message,
      c.message,
    ].join(" ");
    compare(
      set.name,
      matchers.map((m) => JSON.stringify(m.match(set.skills, long, { nearMisses: 3 }))),
      long,
    );
  });
}
console.log(JSON.stringify({ compared, differ, sha256: hashes.map((h) => h.digest("hex").slice(0, 16)) }));
