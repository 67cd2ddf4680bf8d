// One cold start in a new process, for load-prebuilt.bench.ts: import @skillshelf/core, create
// the shelf (scanning, or from a prebuilt shelf), then the first session.plan() — what a
// serverless route pays before its first model call. Prints one JSON line: wall ms of each
// step and of the whole, CPU ms of the whole (all threads, and the main thread alone where
// the runtime can tell), skills served, RSS at the end.
// Usage: load-cold-start.ts <root> <skills dir> <prebuilt file | none> <message>
// SKILLSHELF_CORE=<dist/index.js> times another build of core (a clean snapshot) instead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [root, dir, prebuilt, message] = process.argv.slice(2);
if (!root || !dir || !prebuilt || !message)
  throw new Error("usage: load-cold-start.ts <root> <skills dir> <prebuilt file | none> <message>");
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));

// The main thread's own CPU as well (Node ≥ 23.9): on a loaded machine it moves far less than
// wall time, and unlike process.cpuUsage() it leaves out the GC's and compiler's helper threads.
const threadCpu = (): number | undefined => {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage && (usage.user + usage.system) / 1000;
};
const threadStart = threadCpu();
const cpu = process.cpuUsage();
const start = performance.now();
const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");
const imported = performance.now();
const shelf = await createShelf({
  root,
  projectDirs: [dir],
  userDirs: [],
  events: false,
  stateDir,
  prebuilt: prebuilt === "none" ? false : prebuilt,
});
const loaded = performance.now();
const plan = shelf.session({ message, tools: ["read_file", "bash"] }).plan();
const planned = performance.now();
const used = process.cpuUsage(cpu);
const threadEnd = threadCpu();
const unusable = shelf.diagnostics().filter((d) => d.code.startsWith("prebuilt-"));
if (unusable.length > 0) throw new Error(unusable.map((d) => d.message).join("\n"));
console.log(
  JSON.stringify({
    importMs: imported - start,
    loadMs: loaded - imported,
    planMs: planned - loaded,
    totalMs: planned - start,
    cpuMs: (used.user + used.system) / 1000,
    mainThreadCpuMs: threadEnd === undefined || threadStart === undefined ? null : threadEnd - threadStart,
    skills: shelf.skills().length,
    candidates: plan.candidates?.length ?? 0,
    rssBytes: process.memoryUsage().rss,
  }),
);
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
