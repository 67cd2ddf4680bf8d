// The scan path at several sizes, two builds of core interleaved: for each set, `pairs`
// rounds of one new process per build (load-real.ts), the builds taken in turn, so both
// meet the same machine load. Prints each process's figures (wall and CPU of `createShelf`,
// cost per file, first match, RSS after load / busy / settled, heap, `refresh()`), and the
// 1-minute load average before each round.
// Usage: load-real-ab.ts <pairs> <label>=<dist/index.js> <label>=<dist/index.js>;
// LOAD_AB_SETS=mirror1k,mirror5k,mirror,copied1k,copied10k (default: copied1k,copied10k,mirror).
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { buildSkillTree, MIRROR_DIR, mirrorFiles, mirrorMessagesFile, mirrorSubset } from "./corpus.ts";

const [pairsArg, ...buildArgs] = process.argv.slice(2);
const pairs = Number(pairsArg);
const builds = buildArgs.map((arg) => {
  const at = arg.indexOf("=");
  return { label: arg.slice(0, at), core: arg.slice(at + 1) };
});
if (!(pairs > 0) || builds.length < 1 || builds.some((b) => !b.label || !b.core))
  throw new Error("usage: load-real-ab.ts <pairs> <label>=<dist/index.js> ...");

const sets: Record<string, () => { dir: string; files: number }> = {
  mirror1k: () => ({ dir: mirrorSubset(1_000), files: 1_000 }),
  mirror5k: () => ({ dir: mirrorSubset(5_000), files: 5_000 }),
  mirror: () => ({ dir: MIRROR_DIR, files: mirrorFiles().length }),
  copied1k: () => ({ dir: buildSkillTree(1_000), files: 1_000 }),
  copied10k: () => ({ dir: buildSkillTree(10_000), files: 10_000 }),
};
const chosen = (process.env.LOAD_AB_SETS ?? "copied1k,copied10k,mirror").split(",");
const script = fileURLToPath(new URL("./load-real.ts", import.meta.url));
const messages = mirrorMessagesFile();
const MiB = 2 ** 20;

console.log(
  "| set | build | load avg | skills | `createShelf` wall (CPU) | per file wall (CPU) | first `match()` wall (CPU) | RSS after load | RSS busy (peak) | settled | heap + buffers | `refresh()` |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
);
for (const name of chosen) {
  const make = sets[name];
  if (!make) throw new Error(`unknown set ${name}`);
  const { dir, files } = make();
  for (let round = 0; round < pairs; round++) {
    for (const build of builds) {
      const load = os.loadavg()[0]!.toFixed(1);
      const out = execFileSync(process.execPath, [...process.execArgv, script, dir, messages], {
        encoding: "utf8",
        env: { ...process.env, SKILLSHELF_CORE: build.core },
        maxBuffer: 1 << 24,
      });
      const r = JSON.parse(out.trim().split("\n").pop() as string) as Record<string, number>;
      const us = (ms: number) => ((ms / files) * 1000).toFixed(0);
      console.log(
        `| ${name} | ${build.label} | ${load} | ${r.skills} | ${r.loadMs!.toFixed(0)} (${r.loadCpuMs!.toFixed(0)}) ms | ${us(r.loadMs!)} (${us(r.loadCpuMs!)}) µs | ${r.firstMatchMs!.toFixed(0)} (${r.firstMatchCpuMs!.toFixed(0)}) ms | ${(r.loadRssBytes! / MiB).toFixed(0)} | ${(r.rssBytes! / MiB).toFixed(0)} (${(r.maxRssBytes! / MiB).toFixed(0)}) | ${(r.settledRssBytes! / MiB).toFixed(0)} | ${(r.heapBytes! / MiB).toFixed(0)} | ${r.refreshMs!.toFixed(2)} ms |`,
      );
    }
  }
}
