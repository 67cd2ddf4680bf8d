/**
 * Shared by every suite: the machine line RESULTS.md asks for, a tinybench wrapper that
 * returns medians, and a Markdown table printer. A suite is `<name>.bench.ts` exporting
 * `run(): Promise<void>`; run.ts selects suites by name.
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { Bench } from "tinybench";

export interface Machine {
  cpus: number;
  cpu: string;
  node: string;
  os: string;
  date: string;
}

export function machine(): Machine {
  let cpus = os.availableParallelism();
  try {
    cpus = Number(execFileSync("nproc", { encoding: "utf8" }).trim()) || cpus;
  } catch {
    // not Linux/coreutils: availableParallelism() is the same number
  }
  return {
    cpus,
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString().slice(0, 10),
  };
}

export function machineLine(m = machine()): string {
  return `${m.date} · nproc ${m.cpus} · ${m.cpu} · Node ${m.node} · ${m.os}`;
}

export interface Measured {
  name: string;
  /** Median latency in ms. */
  median: number;
  samples: number;
}

export interface MeasureOptions {
  /** Minimum iterations (default 20). */
  iterations?: number;
  /** Time budget per task in ms (default 1500). */
  time?: number;
  warmupIterations?: number;
}

/** Runs the tasks one after another with tinybench and returns their medians. */
export async function measure(
  tasks: ReadonlyArray<readonly [name: string, fn: () => unknown | Promise<unknown>]>,
  options: MeasureOptions = {},
): Promise<Measured[]> {
  const bench = new Bench({
    iterations: options.iterations ?? 20,
    time: options.time ?? 1500,
    warmupIterations: options.warmupIterations ?? 2,
    warmupTime: 0,
    throws: true,
  });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
    return { name: task.name, median: result.latency.p50, samples: result.latency.samplesCount };
  });
}

export function formatMs(ms: number): string {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** A Markdown table: one row per result, `ratio` relative to the row named `baseline`. */
export function table(
  rows: readonly Measured[],
  baseline: string,
  extra: Record<string, string> = {},
): string {
  const base = rows.find((r) => r.name === baseline);
  const lines = ["| task | median | vs skillshelf | samples |", "|---|---:|---:|---:|"];
  for (const row of rows) {
    const ratio = base ? `${(row.median / base.median).toFixed(1)}×` : "";
    lines.push(
      `| ${row.name}${extra[row.name] ?? ""} | ${formatMs(row.median)} | ${ratio} | ${row.samples} |`,
    );
  }
  return lines.join("\n");
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
