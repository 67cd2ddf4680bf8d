/**
 * What stage 1 hands the model when it does offer something: on the dev splits, the share of
 * requests that get candidates, and per in-scope request that gets them, how many candidates
 * (at most 5, `match`'s default limit) and how many of those are not an expected skill — the
 * noise the model then has to reject. Dev only: the test splits are never read here.
 *
 * Run: `node --experimental-strip-types --no-warnings bench/routing-candidates.ts '<tuning JSON>'`
 * (after building core); `SKILLSHELF_CORE=<dist/index.js>` measures another build the same way.
 */
import type * as Core from "@skillshelf/core";
import { clinc, dotnet, metatool, metatoolWithForeignNegatives } from "./routing-data.ts";

const core = (await import(process.env.SKILLSHELF_CORE ?? "@skillshelf/core")) as typeof Core;
const tuning = JSON.parse(process.argv[2] ?? "{}") as Core.MatcherOptions;
const pct = (n: number, of: number) => (of === 0 ? "—" : ((100 * n) / of).toFixed(1));
const per = (n: number, of: number) => (of === 0 ? "—" : (n / of).toFixed(2));

console.log(
  "| dev set | in-scope with candidates | candidates per such request | not expected among them | out-of-scope with candidates |",
);
console.log("|---|---:|---:|---:|---:|");
for (const set of [clinc(), metatool(), dotnet(), metatoolWithForeignNegatives()]) {
  const matcher = core.createMatcher(tuning);
  let positives = 0;
  let offered = 0;
  let candidates = 0;
  let unexpected = 0;
  let negatives = 0;
  let negativesOffered = 0;
  for (const c of set.dev) {
    const names = matcher.match(set.skills, c.message).candidates.map((x) => x.name);
    if (c.expect === null) {
      negatives++;
      if (names.length > 0) negativesOffered++;
      continue;
    }
    positives++;
    if (names.length === 0) continue;
    offered++;
    candidates += names.length;
    const expected = new Set(c.expect);
    unexpected += names.filter((n) => !expected.has(n)).length;
  }
  console.log(
    `| ${set.name} | ${pct(offered, positives)} | ${per(candidates, offered)} | ${per(unexpected, offered)} | ${pct(negativesOffered, negatives)} |`,
  );
}
