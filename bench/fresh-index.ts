// Stage-1 index builds in a new process, for match.bench.ts (a process per sample keeps the
// heap and the JIT in the same state from run to run). The skills are loaded first (not
// timed), then, CPU time of:
// - first: the first match() of the process, which builds the index with nothing warm — no
//   JIT, an empty stem cache and vocabulary — as at a host's startup;
// - again: a build by a new matcher, the process warm (median of 3);
// - rebuild: the first matcher on the list after a hot reload that edited one skill (a new
//   array with one new Skill object, a different one each time; median of 7).
// Memory (V8 heap + ArrayBuffers, growth after GC): heapBytes, what the first build left
// (index, per-skill entries, the shared vocabulary and stem cache); matcherBytes, what a
// second matcher on the same skills adds (its index and per-skill entries only).
// Prints {"first": …, "again": …, "rebuild": …, "heapBytes": …, "matcherBytes": …}.
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { createMatcher, createShelf, type Skill } from "@skillshelf/core";

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
const shelf = await createShelf({
  root: path.dirname(dir),
  projectDirs: [dir],
  userDirs: [],
  builtinRoles: false,
  events: false,
});
const skills = shelf.skills();
await shelf.close();

const before = heapUsed();
const matcher = createMatcher();
const first = cpuMs(() => matcher.match(skills, "warm up"));
const afterFirst = heapUsed();
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
console.log(JSON.stringify({ first, again, rebuild, heapBytes, matcherBytes }));
