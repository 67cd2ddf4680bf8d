/**
 * The first index build at real scale, two (or more) builds of core side by side in the same
 * run: for each set (mirror parts of 1,000 and 5,000 files, the whole mirror, the copied
 * corpus at 1,000 and 10,000), the builds take turns, each sample a new process:
 * - load-real.ts: the first `shelf.match()` after `createShelf` (wall and CPU), `match()` p50,
 *   RSS at the end — the figures the scale goals name;
 * - fresh-index.ts: the first build's CPU time, a warm rebuild over known words, and what the
 *   first build adds to the heap + ArrayBuffers and to the resident set.
 * Each figure is the median of `runs` processes. The machine is shared: read the ratios
 * between builds of the same run, and the load average printed before and after.
 *
 * Usage (in bench/, after building each core):
 *   node --experimental-strip-types --no-warnings match-scale-ab.ts <runs> <label>=<dist/index.js> …
 * e.g. `3 base=/tmp/base/packages/core/dist/index.js after=../packages/core/dist/index.js`.
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSkillTree, MIRROR_DIR, mirrorFiles, mirrorMessagesFile, mirrorSubset } from "./corpus.ts";
import { formatMs, median } from "./lib.ts";

type Figures = Record<string, number>;

const [runsArg, ...buildArgs] = process.argv.slice(2);
const runs = Number(runsArg);
const builds = buildArgs.map((arg) => {
  const at = arg.indexOf("=");
  return { label: arg.slice(0, at), core: path.resolve(arg.slice(at + 1)) };
});
if (!(runs > 0) || builds.length === 0 || builds.some((b) => b.label === ""))
  throw new Error("usage: match-scale-ab.ts <runs> <label>=<dist/index.js> …");

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
function sample(script: string, args: string[], core: string): Figures {
  const out = execFileSync(process.execPath, [...process.execArgv, here(script), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
    env: { ...process.env, SKILLSHELF_CORE: core },
  });
  return JSON.parse(out.trim().split("\n").pop() as string) as Figures;
}

const load = () => os.loadavg()[0]?.toFixed(1);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const messages = mirrorMessagesFile();
// MATCH_SCALE_SETS=mirror (keys, comma-separated: part1k, part5k, mirror, copied1k,
// copied10k) runs only those sets: on a loaded machine the whole mirror alone is what a
// quick comparison needs.
const only = process.env.MATCH_SCALE_SETS?.split(",");
const allSets: Array<[key: string, label: string, dir: () => string]> = [
  ["part1k", "mirror part · 1,000 files", () => mirrorSubset(1_000)],
  ["part5k", "mirror part · 5,000 files", () => mirrorSubset(5_000)],
  ["mirror", `**mirror · ${mirrorFiles().length.toLocaleString("en-US")} files**`, () => MIRROR_DIR],
  ["copied1k", "copied corpus · 1,000 files", () => buildSkillTree(1_000)],
  ["copied10k", "copied corpus · 10,000 files", () => buildSkillTree(10_000)],
];
const sets = allSets.filter(([key]) => only === undefined || only.includes(key));

for (const [, label, setDir] of sets) {
  const dir = setDir();
  const real = new Map<string, Figures[]>(builds.map((b) => [b.label, []]));
  const index = new Map<string, Figures[]>(builds.map((b) => [b.label, []]));
  for (let r = 0; r < runs; r++) {
    for (const build of builds) {
      real.get(build.label)?.push(sample("load-real.ts", [dir, messages], build.core));
      index.get(build.label)?.push(sample("fresh-index.ts", [dir], build.core));
    }
  }
  for (const build of builds) {
    const pick = (list: Figures[] | undefined, key: string) =>
      median((list ?? []).map((f) => f[key] as number));
    const r = real.get(build.label);
    const i = index.get(build.label);
    const skills = pick(r, "skills");
    console.log(
      `| ${label} — ${build.label} | ${skills.toLocaleString("en-US")} | ${formatMs(pick(r, "firstMatchMs"))} (${formatMs(pick(r, "firstMatchCpuMs"))}) | ${formatMs(pick(i, "first"))} | ${((pick(i, "first") * 1000) / skills).toFixed(0)} µs | ${formatMs(pick(i, "again"))} | ${mib(pick(i, "heapBytes"))} | ${mib(pick(i, "rssBytes"))} | ${formatMs(pick(r, "matchP50Ms"))} | ${mib(pick(r, "rssBytes"))} |`,
    );
  }
}
console.log(`\nload average (1 min) ${load()} at the end`);
