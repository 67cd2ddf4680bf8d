/**
 * Import cost: `import("@skillshelf/core")` (its built dist) in a fresh Node process, repeated,
 * median; each adapter imported after its framework, beside the framework alone (what the
 * adapter adds to an app that imports the framework anyway); then which files the core
 * import loads, grouped by package, and what importing each third-party dependency alone
 * costs in a fresh process. Run it with
 * `node --experimental-strip-types --no-warnings bench/import.bench.ts [--runs=N] [--also=<index.js>]`
 * (after building core), or through `pnpm bench import`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./lib.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const coreDir = path.join(here, "..", "packages", "core");
const runsArg = process.argv.find((a) => a.startsWith("--runs="));
const runs = runsArg ? Number(runsArg.slice("--runs=".length)) : 15;

/** Times imports inside a new process, one after the other: wall and CPU ms of the imports alone. */
const timedImport = (specifiers: readonly string[]) => `
const cpu = process.cpuUsage();
const start = performance.now();
for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 }));`;

/** Records every file the import loads (a load hook), then prints them. */
const tracedImport = (specifier: string) => `
import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
await import(${JSON.stringify(specifier)});
console.log(JSON.stringify(loaded));`;

function node(script: string, cwd: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd,
    encoding: "utf8",
  });
}

interface Timing {
  ms: number;
  cpuMs: number;
}

interface Timings extends Timing {
  /** Every run's figures, in run order (the rows were taken in turn). */
  samples: Timing[];
}

/**
 * Medians of `times` fresh imports of each row (one specifier, or several imported in order),
 * taken in turn so that load drifts hit all alike.
 */
function timeFresh(rows: ReadonlyArray<string | readonly string[]>, cwd: string, times = runs): Timings[] {
  const samples: Timing[][] = rows.map(() => []);
  for (let i = 0; i < times; i++) {
    rows.forEach((row, at) => {
      samples[at]!.push(JSON.parse(node(timedImport(typeof row === "string" ? [row] : row), cwd)));
    });
  }
  return samples.map((taken) => ({
    ms: median(taken.map((s) => s.ms)),
    cpuMs: median(taken.map((s) => s.cpuMs)),
    samples: taken,
  }));
}

/** `node_modules/.pnpm/zod@4.1.12/node_modules/zod/...` → `zod`; core's own files → `@skillshelf/core`. */
function packageOf(url: string): string {
  if (!url.startsWith("file:")) return url.split(":")[0]!;
  const file = fileURLToPath(url);
  const at = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (at < 0) return file.startsWith(coreDir) ? "@skillshelf/core" : file;
  const parts = file.slice(at + "/node_modules/".length).split(path.sep);
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * Each adapter with the framework entry an app imports anyway (the bench package depends on
 * all three): the framework alone, then the framework and the adapter in one process.
 */
const ADAPTERS = [
  { adapter: "@skillshelf/ai-sdk", framework: "ai" },
  { adapter: "@skillshelf/langchain", framework: "langchain" },
  { adapter: "@skillshelf/mastra", framework: "@mastra/core/agent" },
] as const;

export async function run(): Promise<void> {
  const loadBefore = fs.readFileSync("/proc/loadavg", "utf8").trim();
  // --also=<built index.js> adds a row for another build (e.g. an older commit's, for before/after).
  const also = process.argv.filter((a) => a.startsWith("--also=")).map((a) => a.slice("--also=".length));
  const entries = ["@skillshelf/core", "@skillshelf/core/adapter", ...also];
  const timings = timeFresh(entries, here);
  const loadAfter = fs.readFileSync("/proc/loadavg", "utf8").trim();
  console.log(`load average before: ${loadBefore}; after: ${loadAfter}\n`);
  console.log("| import | median wall | median CPU | runs |\n|---|---:|---:|---:|");
  entries.forEach((entry, i) => {
    const { ms, cpuMs } = timings[i]!;
    console.log(`| ${entry} | ${ms.toFixed(1)} ms | ${cpuMs.toFixed(1)} ms | ${runs} |`);
  });

  const pairs = ADAPTERS.flatMap(({ adapter, framework }) => [[framework], [framework, adapter]]);
  const pairTimings = timeFresh(pairs, here);
  console.log(
    "\n| adapter | framework alone: wall / CPU | framework + adapter: wall / CPU | the adapter adds (paired): wall / CPU |\n|---|---:|---:|---:|",
  );
  ADAPTERS.forEach(({ adapter, framework }, i) => {
    const bare = pairTimings[2 * i]!;
    const withAdapter = pairTimings[2 * i + 1]!;
    const cell = (t: Timing) => `${t.ms.toFixed(1)} / ${t.cpuMs.toFixed(1)} ms`;
    // The median of the paired differences (the two rows ran back to back in every round).
    const added = {
      ms: median(withAdapter.samples.map((s, run) => s.ms - bare.samples[run]!.ms)),
      cpuMs: median(withAdapter.samples.map((s, run) => s.cpuMs - bare.samples[run]!.cpuMs)),
    };
    console.log(
      `| ${adapter} (after \`${framework}\`) | ${cell(bare)} | ${cell(withAdapter)} | ${cell(added)} |`,
    );
  });
  const adapterAlone = timeFresh(
    ADAPTERS.map(({ adapter }) => adapter),
    here,
  );
  console.log(
    "\n| adapter imported alone (it loads its framework) | median wall | median CPU |\n|---|---:|---:|",
  );
  ADAPTERS.forEach(({ adapter }, i) => {
    const { ms, cpuMs } = adapterAlone[i]!;
    console.log(`| ${adapter} | ${ms.toFixed(1)} ms | ${cpuMs.toFixed(1)} ms |`);
  });

  const loaded: string[] = JSON.parse(node(tracedImport("@skillshelf/core"), here));
  const perPackage = new Map<string, number>();
  for (const url of loaded) perPackage.set(packageOf(url), (perPackage.get(packageOf(url)) ?? 0) + 1);
  console.log(`\nFiles loaded by the import (${loaded.length}), by package:\n`);
  console.log("| package | files | its import alone (median wall / CPU) |\n|---|---:|---:|");
  const dependencies = Object.keys(
    JSON.parse(fs.readFileSync(path.join(coreDir, "package.json"), "utf8")).dependencies ?? {},
  );
  for (const [name, files] of [...perPackage].sort((a, b) => b[1] - a[1])) {
    const alone = dependencies.includes(name) ? timeFresh([name], coreDir, Math.min(runs, 7))[0] : undefined;
    const cost = alone ? `${alone.ms.toFixed(1)} / ${alone.cpuMs.toFixed(1)} ms` : "";
    console.log(`| ${name} | ${files} | ${cost} |`);
  }
  const absent = dependencies.filter((name) => !perPackage.has(name));
  console.log(`\nDependencies not loaded by the import: ${absent.join(", ") || "none"}`);
  const adapterLoaded = new Set(
    (JSON.parse(node(tracedImport("@skillshelf/core/adapter"), here)) as string[]).map(packageOf),
  );
  const adapterAbsent = dependencies.filter((name) => !adapterLoaded.has(name));
  console.log(`Not loaded by @skillshelf/core/adapter: ${adapterAbsent.join(", ") || "none"}`);
  console.log(`\nload average at the end: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
