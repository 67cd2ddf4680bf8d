// How idle the main thread is while a fresh process loads a shelf, and what the first match
// then costs: wall time, this thread's CPU (process.threadCpuUsage), the whole process's CPU,
// the event loop's idle time (performance.eventLoopUtilization), the other threads' CPU from
// /proc/self/task/*/stat, and RSS. One sample per process; prints one JSON line.
// Usage: load-idle.ts <skills dir> <messages.json>; SKILLSHELF_CORE=<dist/index.js> for another build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { skillDirOptions } from "./skill-dir.ts";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");
const [dir, messagesFile] = process.argv.slice(2);
if (!dir || !messagesFile) throw new Error("usage: load-idle.ts <skills dir> <messages.json>");
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));

const TICK_MS = 10; // one clock tick (USER_HZ 100)
/** CPU ms of each thread but this one, summed (utime + stime from /proc). */
function otherThreadsMs(): number {
  let sum = 0;
  for (const tid of fs.readdirSync("/proc/self/task")) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      sum += (Number(f[11]) + Number(f[12])) * TICK_MS;
    } catch {}
  }
  return sum;
}
const cpu = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function phase<T>(fn: () => Promise<T> | T) {
  const elu = performance.eventLoopUtilization();
  const thread = process.threadCpuUsage();
  const proc = process.cpuUsage();
  const others = otherThreadsMs();
  const start = performance.now();
  const value = await fn();
  const wall = performance.now() - start;
  const e = performance.eventLoopUtilization(elu);
  return {
    value,
    out: {
      wall: Math.round(wall),
      mainCpu: Math.round(cpu(process.threadCpuUsage(thread))),
      procCpu: Math.round(cpu(process.cpuUsage(proc))),
      otherCpu: Math.round(otherThreadsMs() - others),
      idle: Math.round(e.idle),
      active: Math.round(e.active),
    },
  };
}

const load = await phase(() => createShelf({ ...skillDirOptions(dir), stateDir }));
const shelf = load.value;
const count = shelf.skills().length;
const first = await phase(() => shelf.match(messages[0] as string));
const rss = process.memoryUsage().rss;
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    count,
    load: load.out,
    first: first.out,
    rssMiB: Math.round(rss / 2 ** 20),
    load1: os.loadavg()[0],
  }),
);
