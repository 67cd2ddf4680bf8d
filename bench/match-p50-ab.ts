// match() p50 of two (or more) core builds side by side in one process, the builds taking
// turns in 7 rounds over 100 corpus descriptions as messages, on the copied corpus at 1,000 and
// 10,000 skills; the load average before and after. Read the ratio, not the figures.
// Usage: node --experimental-strip-types --no-warnings match-p50-ab.ts <dist/index.js> <dist/index.js> …
import os from "node:os";
import type * as Core from "@skillshelf/core";
import { buildSkillTree, corpusFiles } from "./corpus.ts";
import { loadSkillsOf } from "./skill-dir.ts";

const builds = await Promise.all(process.argv.slice(2).map(async (p) => (await import(p)) as typeof Core));
const msgs = corpusFiles()
  .slice(0, 200)
  .map((f) => /\ndescription:\s*["']?(.+)/u.exec(f.text)?.[1] ?? "")
  .filter((d) => d.length > 20)
  .slice(0, 100);
console.log("load", os.loadavg()[0]?.toFixed(1));
for (const count of [1_000, 10_000]) {
  const skills = await loadSkillsOf(builds[0]!.createShelf, buildSkillTree(count));
  const matchers = builds.map((b) => b.createMatcher());
  for (const m of matchers) m.match(skills, "warm up");
  const times: number[][] = builds.map(() => []);
  for (let round = 0; round < 7; round++)
    matchers.forEach((m, k) => {
      for (const msg of msgs) {
        const t = process.hrtime.bigint();
        m.match(skills, msg);
        times[k]!.push(Number(process.hrtime.bigint() - t) / 1e3);
      }
    });
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
  console.log(count, "skills, match p50 µs:", times.map(p50).join(" vs "));
}
console.log("load", os.loadavg()[0]?.toFixed(1));
