// One load in a new process, for load.bench.ts: prints {"ms", "cpuMs", "count"}. The library is
// imported before the clock starts, unless --with-import (then its import is timed too).
import { loaders } from "./load.bench.ts";

const [name, dir] = process.argv.slice(2);
const withImport = process.argv.includes("--with-import");
const loader = loaders[name!];
if (!loader || !dir)
  throw new Error(`usage: fresh-load.ts <${Object.keys(loaders).join("|")}> <dir> [--with-import]`);
if (!withImport) await loader.prepare();
const cpu = process.cpuUsage();
const start = performance.now();
const count = await loader.load(dir);
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
// CPU time of all the process's threads (JIT compilers and GC helpers included): on a shared
// machine it moves less than wall time, which depends on whether the other core is free.
console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, count }));
