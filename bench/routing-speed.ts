/**
 * What the abstaining scorer costs per message: `match()` p50 at 1,000 and 10,000 real skills
 * (the corpus replicated, corpus.ts), the scorer's defaults beside the same matcher with the
 * everyday-word prior and familiarity off (the scorer before them), interleaved in rounds so a
 * noisy machine hits both alike; then the same on the 10,000 skills given two examples each
 * (real skills rarely have examples; this is where familiarity does work). And the one-off
 * costs in new processes: the first match of a process on a 20-skill shelf, with and without
 * the prior (the first English word reads its list), and the shelf's familiarity references
 * (from its examples, and from its skills' texts on a shelf without examples).
 *
 * Run: `node --experimental-strip-types --no-warnings bench/routing-speed.ts` (after building
 * core); `SKILLSHELF_CORE=<dist/index.js>` measures another build (a baseline) the same way,
 * and `SKILLSHELF_TUNING='<tuning JSON>'` measures an option in the "defaults" column.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as Core from "@skillshelf/core";
import { buildSkillTree, corpusFiles } from "./corpus.ts";
import { measure } from "./lib.ts";
import { metatool } from "./routing-data.ts";
import { loadSkillsOf } from "./skill-dir.ts";

const core = (await import(process.env.SKILLSHELF_CORE ?? "@skillshelf/core")) as typeof Core;
const BEFORE = { everydayWords: false, familiarity: false } as Core.MatcherOptions;
const TUNING = JSON.parse(process.env.SKILLSHELF_TUNING ?? "{}") as Core.MatcherOptions;

function messages(): string[] {
  const fromSkills = corpusFiles()
    .slice(0, 200)
    .map((f) => /\ndescription:\s*["']?(.+)/u.exec(f.text)?.[1] ?? "")
    .filter((d) => d.length > 20)
    .map((d) => `Please help me: ${d.split(/\s+/u).slice(0, 12).join(" ")}`);
  const queries = metatool().test.map((c) => c.message);
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const q = queries[i];
    if (q) out.push(q);
    const s = fromSkills[i];
    if (s) out.push(s);
  }
  return out;
}

const loadSkills = (dir: string): Promise<Core.Skill[]> => loadSkillsOf(core.createShelf, dir);

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

async function perMessage(label: string, skills: readonly Core.Skill[], list: readonly string[]) {
  const now = core.createMatcher(TUNING);
  const before = core.createMatcher(BEFORE);
  now.match(skills, "build the index");
  before.match(skills, "build the index");
  const samples = { now: [] as number[], before: [] as number[] };
  for (let round = 0; round < 3; round++) {
    let a = round * 7;
    let b = round * 7;
    const rows = await measure(
      [
        ["now", () => now.match(skills, list[a++ % list.length] as string)],
        ["before", () => before.match(skills, list[b++ % list.length] as string)],
      ],
      { iterations: 300, time: 1000, warmupIterations: 30 },
    );
    for (const row of rows) samples[row.name as "now" | "before"].push(row.median);
  }
  const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
  console.log(
    `| ${label} | ${us(mid(samples.now))} | ${us(mid(samples.before))} | ${(mid(samples.now) / mid(samples.before)).toFixed(2)} |`,
  );
}

/** CPU ms of the first match of a new process on a small shelf (`everyday` on or off), and of a second one. */
function firstMatch(everyday: boolean): { first: number; second: number } {
  const script = `
    const core = await import(${JSON.stringify(process.env.SKILLSHELF_CORE ?? "@skillshelf/core")});
    const skills = Array.from({ length: 20 }, (_, i) => ({
      ...core.defaultSkillMeta(), name: "skill-" + i, description: "Skill number " + i + " about topic" + i,
      body: "", scope: "project", file: "/s/" + i, hash: String(i), locked: false, bodyLine: 1,
    }));
    const m = core.createMatcher({ everydayWords: ${everyday} });
    const cpu = (fn) => { const s = process.cpuUsage(); fn(); const u = process.cpuUsage(s); return (u.user + u.system) / 1000; };
    const first = cpu(() => m.match(skills, "please tell me about topic3 and its passport rules"));
    const second = cpu(() => m.match(skills, "what about topic4 then"));
    console.log(JSON.stringify({ first, second }));`;
  const runs = Array.from({ length: 5 }, () => {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      cwd: path.dirname(fileURLToPath(import.meta.url)),
    });
    return JSON.parse(out.trim()) as { first: number; second: number };
  });
  const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
  return { first: mid(runs.map((r) => r.first)), second: mid(runs.map((r) => r.second)) };
}

const list = messages();
console.log(`${list.length} messages (MetaTool Task1 queries + requests from corpus descriptions).\n`);
console.log("| match() p50 | defaults | prior and familiarity off | ratio |\n|---|---:|---:|---:|");
let largest: Core.Skill[] = [];
for (const count of [1_000, 10_000]) {
  const skills = await loadSkills(buildSkillTree(count));
  await perMessage(`${count.toLocaleString("en-US")} skills`, skills, list);
  largest = skills;
}
const withExamples = largest.map((skill, i) => ({
  ...skill,
  examples: [list[i % list.length] as string, list[(i * 7 + 3) % list.length] as string],
}));
await perMessage("10,000 skills, two examples each", withExamples, list);

const on = firstMatch(true);
const off = firstMatch(false);
console.log(
  `\nFirst match of a new process, 20 skills, CPU ms (median of 5 processes; index build included): prior on ${on.first.toFixed(1)} (second match ${on.second.toFixed(2)}), off ${off.first.toFixed(1)} (${off.second.toFixed(2)}).`,
);
const cpu = (fn: () => unknown) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
core.createMatcher().match(withExamples, "warm the vocabulary");
const builds = { on: [] as number[], off: [] as number[] };
for (let i = 0; i < 5; i++) {
  // Alternate which goes first: each build leaves the previous one's index as garbage.
  for (const familiarity of i % 2 === 0 ? [true, false] : [false, true]) {
    const matcher = core.createMatcher({ familiarity });
    builds[familiarity ? "on" : "off"].push(cpu(() => matcher.match(withExamples, "a passport question")));
  }
}
const bare = { on: [] as number[], off: [] as number[] };
for (let i = 0; i < 5; i++) {
  for (const familiarity of i % 2 === 0 ? [true, false] : [false, true]) {
    const matcher = core.createMatcher({ familiarity });
    bare[familiarity ? "on" : "off"].push(cpu(() => matcher.match(largest, "a passport question")));
  }
}
const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
console.log(
  `First match of a new matcher on the 10,000 skills with examples (index build, and the familiarity reference when on), CPU ms, median of 5: on ${mid(builds.on).toFixed(0)}, off ${mid(builds.off).toFixed(0)}.`,
);
console.log(
  `The same on the 10,000 skills without examples (the reference from the skills' texts when on): on ${mid(bare.on).toFixed(0)}, off ${mid(bare.off).toFixed(0)}.`,
);
