/**
 * Benchmark entry point: `pnpm bench` runs every suite, `pnpm bench load match` the named
 * ones. A suite is a `<name>.bench.ts` file beside this one exporting `run()`; add a file to
 * add a suite. Results are printed as Markdown to paste into RESULTS.md (each suite has
 * its own section there).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { machineLine } from "./lib.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const available = fs
  .readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .map((f) => f.slice(0, -".bench.ts".length))
  .sort();

const requested = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown suite(s): ${unknown.join(", ")}; available: ${available.join(", ")}`);
  process.exit(2);
}
const suites = requested.length > 0 ? requested : available;

console.log(`# skillshelf benchmarks\n\n${machineLine()}\n`);
for (const name of suites) {
  const suite = (await import(`./${name}.bench.ts`)) as { run: () => Promise<void> };
  console.log(`## ${name}\n`);
  await suite.run();
  console.log("");
}
