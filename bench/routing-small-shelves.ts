/**
 * Dev only: stage 1 on small shelves, the new user's case the full sets cannot show (their
 * shelves hold 150–199 skills; on a small one most words of a request are unknown to the shelf).
 * CLINC150's 150 intents are dealt into 7 shelves of 21–22 skills (intent i → shelf i mod 7,
 * each with its 10 examples, as in routing-data.ts). Each shelf is asked its own intents' dev
 * requests (positives), CLINC150's 200 dev out-of-scope requests and every 10th dev request of
 * the other shelves' intents (in scope for CLINC150, out of scope for this shelf: the near
 * misses a small shelf meets). Totals over the 7 shelves, at the thresholds given.
 *
 * Run: `node --experimental-strip-types --no-warnings bench/routing-small-shelves.ts '<tuning JSON>' [thresholds…]`
 * (`SKILLSHELF_CORE=<dist/index.js>` for another build).
 */
import type * as Core from "@skillshelf/core";
import type { MatcherOptions, RoutingCase } from "@skillshelf/core";
import { clinc } from "./routing-data.ts";

// `SKILLSHELF_CORE=<dist/index.js>` measures another build (a baseline) on the same shelves.
const { createMatcher, evaluateRouting } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof Core;

const SHELVES = 7;
const tuning = JSON.parse(process.argv[2] ?? "{}") as MatcherOptions;
const thresholds = process.argv.slice(3).map(Number);
const set = clinc();
const shelfOf = new Map(set.skills.map((skill, i) => [skill.name, i % SHELVES]));

const pct = (x: number) => (x * 100).toFixed(1);
console.log("| threshold | recall@3 | none-accuracy, out-of-scope | none-accuracy, other shelves' intents |");
for (const minScore of thresholds.length > 0 ? thresholds : [undefined]) {
  const matcher = createMatcher({ ...tuning, ...(minScore === undefined ? {} : { minScore }) });
  let positives = 0;
  let found = 0;
  let oos = 0;
  let oosNone = 0;
  let foreign = 0;
  let foreignNone = 0;
  for (let k = 0; k < SHELVES; k++) {
    const skills = set.skills.filter((skill) => shelfOf.get(skill.name) === k);
    const own: RoutingCase[] = [];
    const outOfScope: RoutingCase[] = [];
    const others: RoutingCase[] = [];
    set.dev.forEach((c, i) => {
      if (c.expect === null) outOfScope.push(c);
      else if (shelfOf.get(c.expect[0] as string) === k) own.push(c);
      else if (i % 10 === 0) others.push({ ...c, expect: null });
    });
    const run = (cases: RoutingCase[]) => evaluateRouting(cases, (m) => matcher.match(skills, m));
    const a = run(own);
    positives += own.length;
    found += a.recallAt3 * own.length;
    const b = run(outOfScope);
    oos += outOfScope.length;
    oosNone += b.none.accuracy * outOfScope.length;
    const c = run(others);
    foreign += others.length;
    foreignNone += c.none.accuracy * others.length;
  }
  console.log(
    `| ${minScore ?? matcher.tuning.minScore} | ${pct(found / positives)} | ${pct(oosNone / oos)} | ${pct(foreignNone / foreign)} |`,
  );
}
