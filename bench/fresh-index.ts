// Stage-1 index builds in a new process, for match.bench.ts and match-scale-ab.ts (a process
// per sample keeps the heap and the JIT in the same state from run to run). The skills are
// loaded first (not timed), then, CPU time of:
// - first: the first match() of the process, which builds the index with nothing warm — no
//   JIT, an empty vocabulary — as at a host's startup (firstWall: the same in wall time);
// - again: a build by a new matcher, the process warm (median of 3): every word is known to
//   the shared vocabulary by then, so this is the cost of scanning the text and laying out
//   the index, and first − again what meeting each word the first time (stemming, CJK
//   segmentation, term ids) and the JIT's warm-up cost;
// - rebuild: the first matcher on the list after a hot reload that edited one skill (a new
//   array with one new Skill object, a different one each time; median of 7).
// Memory, growth after GC: heapBytes (V8 heap + ArrayBuffers), what the first build left
// (index, per-skill entries, the shared vocabulary); rssBytes, the resident set's growth over
// the first build (it also holds the pages the build's garbage touched, which V8 keeps);
// matcherBytes, what a second matcher on the same skills adds (its index and per-skill
// entries only).
// Usage: fresh-index.ts <skills dir>; SKILLSHELF_CORE=<dist/index.js> times another build of
// core (as load-real.ts does).
// Prints {"first": …, "firstWall": …, "again": …, "rebuild": …, "heapBytes": …, "rssBytes": …, "matcherBytes": …}.
import v8 from "node:v8";
import vm from "node:vm";
import type { Skill } from "@skillshelf/core";
import { skillDirOptions } from "./skill-dir.ts";

const { createMatcher, createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
/** Heap plus ArrayBuffer backing stores (typed arrays live outside the V8 heap). */
const heapUsed = () => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
const cpuMs = (fn: () => unknown) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (samples: number[]) => samples.sort((a, b) => a - b)[samples.length >> 1] as number;

const dir = process.argv[2];
if (!dir) throw new Error("usage: fresh-index.ts <skills dir>");
const shelf = await createShelf(skillDirOptions(dir));
const skills = shelf.skills();
await shelf.close();

const before = heapUsed();
const rssBefore = process.memoryUsage().rss;
const matcher = createMatcher();
const wallStart = performance.now();
const first = cpuMs(() => matcher.match(skills, "warm up"));
const firstWall = performance.now() - wallStart;
const afterFirst = heapUsed();
const rssBytes = process.memoryUsage().rss - rssBefore;
const second = createMatcher();
second.match([...skills], "second");
const matcherBytes = heapUsed() - afterFirst;
const heapBytes = afterFirst - before;
const again = median([0, 1, 2].map(() => cpuMs(() => createMatcher().match([...skills], "again"))));
const rebuild = median(
  [0, 1, 2, 3, 4, 5, 6].map((run) => {
    const edited = [...skills];
    const original = skills[run] as Skill;
    edited[run] = { ...original, description: `${original.description} (edited)` };
    return cpuMs(() => matcher.match(edited, "after an edit"));
  }),
);
console.log(JSON.stringify({ first, firstWall, again, rebuild, heapBytes, rssBytes, matcherBytes }));
