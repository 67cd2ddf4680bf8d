// One load in a new process, for load.bench.ts: prints {"ms": …, "count": …}. The library is
// imported before the clock starts, unless --with-import (then its import is timed too).
import { loaders } from "./load.bench.ts";

const [name, dir] = process.argv.slice(2);
const withImport = process.argv.includes("--with-import");
const loader = loaders[name!];
if (!loader || !dir)
  throw new Error(`usage: fresh-load.ts <${Object.keys(loaders).join("|")}> <dir> [--with-import]`);
if (!withImport) await loader.prepare();
const start = performance.now();
const count = await loader.load(dir);
console.log(JSON.stringify({ ms: performance.now() - start, count }));
