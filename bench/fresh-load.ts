// One load in a new process, for load.bench.ts: prints {"ms": …, "count": …}.
import { loaders } from "./load.bench.ts";

const [name, dir] = process.argv.slice(2);
const load = loaders[name!];
if (!load || !dir) throw new Error(`usage: fresh-load.ts <${Object.keys(loaders).join("|")}> <dir>`);
const start = performance.now();
const count = await load(dir);
console.log(JSON.stringify({ ms: performance.now() - start, count }));
