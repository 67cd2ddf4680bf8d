// A shelf at real scale in a new process, for load.bench.ts and match.bench.ts: prints one
// JSON line with the figures the scale goals name, each taken as a host meets them:
// - loadMs: `createShelf` (scan, read, parse, resolve) with the library already imported;
// - firstMatchMs: the first `shelf.match()`, which builds the stage-1 index (nothing warm);
// - refreshMs / fullRefreshMs: `refresh()` with nothing changed, median of 50 — as a host calls
//   it before a model call (the default), and with every file stat'ed (`{ full: true }`,
//   when the library has it);
// - matchP50Ms: later `shelf.match()` calls, p50 over 400 rotating real requests;
// - loadRssBytes: resident set right after `createShelf` (no GC forced): what the load itself grew;
// - rssBytes: resident set after all that and two full GCs (and maxRssBytes, the peak), heapBytes
//   (heap used + array buffers) and heapTotalBytes (what V8 holds for its heap) then;
// - settledRssBytes: resident set after a memory-reducing GC, which gives back the young
//   generation V8 grew while the shelf was loaded and indexed — what a host process holds once
//   V8's memory reducer has run (it does after some seconds without much allocation).
// Wall times; cpu* the same spans in process CPU time (all threads).
// Usage: load-real.ts <skills dir> <messages.json>; SKILLSHELF_CORE=<dist/index.js> times another
// build of core (a snapshot of an older commit, as the before/after tables do).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import type { Shelf } from "@skillshelf/core";
import { skillDirOptions } from "./skill-dir.ts";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as (options?: {
  type: "major";
  execution: "sync";
  flavor: "last-resort";
}) => void;

const [dir, messagesFile] = process.argv.slice(2);
if (!dir || !messagesFile) throw new Error("usage: load-real.ts <skills dir> <messages.json>");
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];

const timed = <T>(fn: () => T): { value: T; ms: number; cpuMs: number } => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
};
const median = (samples: number[]) => samples.sort((a, b) => a - b)[samples.length >> 1] as number;

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
const loadCpu = process.cpuUsage();
const loadStart = performance.now();
const shelf: Shelf = await createShelf({ ...skillDirOptions(dir), stateDir });
const loadMs = performance.now() - loadStart;
const loadUsed = process.cpuUsage(loadCpu);
const loadCpuMs = (loadUsed.user + loadUsed.system) / 1000;
const loadRssBytes = process.memoryUsage().rss;

const first = timed(() => shelf.match(messages[0] as string));

const refreshOnce = async (options?: { full?: boolean }) => {
  const start = performance.now();
  await (shelf.refresh as (o?: { full?: boolean }) => Promise<unknown>)(options);
  return performance.now() - start;
};
const refreshSamples: number[] = [];
const fullSamples: number[] = [];
for (let i = 0; i < 50; i++) {
  refreshSamples.push(await refreshOnce());
  fullSamples.push(await refreshOnce({ full: true }));
}

const matchSamples: number[] = [];
for (let i = 0; i < 400; i++) {
  const message = messages[(i + 1) % messages.length] as string;
  const start = performance.now();
  shelf.match(message);
  matchSamples.push(performance.now() - start);
}

gc();
gc();
const memory = process.memoryUsage();
const maxRssBytes = process.resourceUsage().maxRSS * 1024;
gc({ type: "major", execution: "sync", flavor: "last-resort" });
const settledRssBytes = process.memoryUsage().rss;
console.log(
  JSON.stringify({
    skills: shelf.skills().length,
    loadMs,
    loadCpuMs,
    diagnostics: shelf.diagnostics().length,
    firstMatchMs: first.ms,
    firstMatchCpuMs: first.cpuMs,
    refreshMs: median(refreshSamples),
    fullRefreshMs: median(fullSamples),
    matchP50Ms: median(matchSamples),
    loadRssBytes,
    rssBytes: memory.rss,
    maxRssBytes,
    settledRssBytes,
    heapBytes: memory.heapUsed + memory.arrayBuffers,
    heapTotalBytes: memory.heapTotal,
  }),
);
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
