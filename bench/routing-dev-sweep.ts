/**
 * The dev-split choice rule in one run: for a tuning (JSON on the command line), recall@3 and
 * none-accuracy at every threshold from 0.10 to 0.30 in 0.01 steps on the dev splits, and the
 * threshold the rule picks — the highest CLINC150 dev none-accuracy with CLINC150 dev recall@3
 * ≥ 84.2, MetaTool dev ≥ 56.8 and dotnet dev ≥ 95.3 (main's figures at its default, round 8;
 * ties to the higher threshold). The rule also asks the small-shelf probe
 * (routing-small-shelves.ts) not to be worse, run apart at the pick. Dev only: the test splits
 * are never read here.
 *
 * Run: `node --experimental-strip-types --no-warnings bench/routing-dev-sweep.ts '{"minScore":0}'`
 */
import { createMatcher, evaluateRouting, type MatcherOptions } from "@skillshelf/core";
import { clinc, dotnet, metatool, metatoolWithForeignNegatives } from "./routing-data.ts";

const FLOORS = { clinc: 0.842, metatool: 0.568, dotnet: 0.953 };

const tuning = JSON.parse(process.argv[2] ?? "{}") as MatcherOptions;
const sets = {
  metatool: metatool(),
  clinc: clinc(),
  dotnet: dotnet(),
  probe: metatoolWithForeignNegatives(),
};
const pct = (x: number) => (x * 100).toFixed(1);

let best: { threshold: number; none: number; line: string } | undefined;
console.log("| threshold | CLINC150 r@3 / none | MetaTool r@3 | dotnet r@3 / none | probe r@3 / none |");
for (let step = 10; step <= 30; step++) {
  const minScore = step / 100;
  const reports = Object.fromEntries(
    Object.entries(sets).map(([key, set]) => {
      const matcher = createMatcher({ ...tuning, minScore });
      return [key, evaluateRouting(set.dev, (m) => matcher.match(set.skills, m))];
    }),
  ) as Record<keyof typeof sets, ReturnType<typeof evaluateRouting>>;
  const { clinc: c, metatool: t, dotnet: d, probe: p } = reports;
  const ok =
    c.recallAt3 >= FLOORS.clinc - 1e-9 &&
    t.recallAt3 >= FLOORS.metatool - 1e-9 &&
    d.recallAt3 >= FLOORS.dotnet - 1e-9;
  const line = `| ${minScore.toFixed(2)}${ok ? " ✔" : ""} | ${pct(c.recallAt3)} / ${pct(c.none.accuracy)} | ${pct(t.recallAt3)} | ${pct(d.recallAt3)} / ${pct(d.none.accuracy)} | ${pct(p.recallAt3)} / ${pct(p.none.accuracy)} |`;
  console.log(line);
  if (ok && (!best || c.none.accuracy >= best.none))
    best = { threshold: minScore, none: c.none.accuracy, line };
}
console.log(best ? `rule → ${best.line}` : "rule → nothing admissible");
