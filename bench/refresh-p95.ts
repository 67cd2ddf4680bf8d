// refresh() on the request path of a conversation: N calls spaced like model calls (20–300 ms
// apart, real timers, so a run crosses many of the watcher's 2-s safety-net intervals), each
// `refresh()` (and with a messages file, `openSession` + `plan()` too), over one skills folder,
// default settings (no user folders). Reports p50/p95/max of each call's wall time and of its
// main-thread CPU (process.threadCpuUsage; the kernel's accounting makes values under ≈ 0.05 ms
// read 0), how many calls stat'ed the whole shelf themselves (as many fs.statSync calls as there
// are skills or more: counted through a wrapper, the same for every build), and the process CPU spent between calls (the background walk, where the
// build has one; timers and GC otherwise), per second of the run.
// Usage:
//   refresh-p95.ts <skills dir> <calls> [messages.json]                one run of this build
//     (SKILLSHELF_CORE=<dist/index.js> measures another build)
//   refresh-p95.ts --ab <base dist> <branch dist> <rounds> <skills dir> <calls> [messages.json]
//     base and branch in fresh processes, taking turns (A B A B…), one JSON line per run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
if (args[0] === "--ab") {
  const [, base, branch, roundsArg, ...rest] = args;
  if (!base || !branch || rest.length < 2)
    throw new Error("usage: refresh-p95.ts --ab <base> <branch> <rounds> <dir> <calls> [messages]");
  for (let round = 0; round < Number(roundsArg); round++) {
    for (const [name, dist] of round % 2 === 0
      ? [
          ["base", base],
          ["branch", branch],
        ]
      : [
          ["branch", branch],
          ["base", base],
        ]) {
      const out = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, ...rest], {
        env: { ...process.env, SKILLSHELF_CORE: dist },
        encoding: "utf8",
        maxBuffer: 1 << 24,
      });
      console.log(JSON.stringify({ build: name, round, ...JSON.parse(out.trim().split("\n").at(-1)!) }));
    }
  }
  process.exit(0);
}

const [dir, callsArg, messagesFile] = args;
if (!dir || !callsArg) throw new Error("usage: refresh-p95.ts <skills dir> <calls> [messages.json]");
const calls = Number(callsArg);
const messages = messagesFile ? (JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[]) : undefined;
const TOOLS = ["read_file", "write_file", "edit_file", "ls", "grep", "execute", "web_search"];

// Count sync stats (the request-path walk's); the built core calls them on this same object.
let statSyncCalls = 0;
const statSync = fs.statSync;
(fs as { statSync: typeof fs.statSync }).statSync = ((...a: Parameters<typeof fs.statSync>) => {
  statSyncCalls++;
  return statSync(...a);
}) as typeof fs.statSync;

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");

const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-refresh-p95-"));
const loadStart = performance.now();
const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [] });
const loadMs = performance.now() - loadStart;
const threadMs = () => {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
};
const processMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The same gaps for every build: a small seeded generator (mulberry32).
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// Two calls first: the first walks, the second starts the watcher (and walks), as in a host.
await shelf.refresh();
await shelf.refresh();
const wall: number[] = [];
const cpu: number[] = [];
let walked = 0;
let between = 0;
let betweenMain = 0;
const runStart = performance.now();
const runCpu0 = processMs();
let last = processMs();
let lastMain = threadMs();
for (let i = 0; i < calls; i++) {
  await sleep(20 + Math.floor(random() * 281));
  const p0 = processMs();
  between += p0 - last;
  const stats0 = statSyncCalls;
  const t0 = threadMs();
  betweenMain += t0 - lastMain;
  const start = performance.now();
  await shelf.refresh();
  if (messages) {
    const message = `${messages[i % messages.length]} (${i})`;
    const session = await shelf.openSession({ tools: TOOLS, history: [{ kind: "user", text: message }] });
    session.plan();
  }
  wall.push(performance.now() - start);
  cpu.push(threadMs() - t0);
  // A background slice (≤ 64 stats) may run inside a call's two turns: a walk stats every file.
  if (statSyncCalls - stats0 >= shelf.skills().length) walked++;
  last = processMs();
  lastMain = threadMs();
}
const runMs = performance.now() - runStart;
const pick = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const summary = (xs: number[]) => ({
  p50: +pick(xs, 0.5).toFixed(3),
  p95: +pick(xs, 0.95).toFixed(3),
  max: +Math.max(...xs).toFixed(3),
});
console.log(
  JSON.stringify({
    skills: shelf.skills().length,
    loadMs: Math.round(loadMs),
    calls,
    runS: +(runMs / 1000).toFixed(1),
    wall: summary(wall),
    cpu: summary(cpu),
    walkedOnRequestPath: walked,
    betweenCallsCpuMsPerS: +(between / (runMs / 1000)).toFixed(2),
    betweenCallsMainThreadMsPerS: +(betweenMain / (runMs / 1000)).toFixed(2),
    processCpuMsPerS: +((processMs() - runCpu0) / (runMs / 1000)).toFixed(2),
    load: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
  }),
);
await shelf.close();
fs.rmSync(root, { recursive: true, force: true });
