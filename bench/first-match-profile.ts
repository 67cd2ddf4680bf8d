// Where the first `match()` on a real shelf spends its time: loads the shelf (not profiled),
// then CPU-profiles the first match alone (the stage-1 index build, 100 µs samples) and prints
// the functions with the most self time, with the most total time (self and callees: which
// phase of the build costs what), and self time summed per source file. Profiled times are
// ≈ 1.5× unprofiled ones: read the shares.
// Usage: first-match-profile.ts <skills dir> <messages.json> [profile.cpuprofile];
// SKILLSHELF_CORE=<dist/index.js> profiles another build of core.
import fs from "node:fs";
import inspector from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { skillDirOptions } from "./skill-dir.ts";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");

const [dir, messagesFile, out] = process.argv.slice(2);
if (!dir || !messagesFile)
  throw new Error("usage: first-match-profile.ts <skills dir> <messages.json> [out]");
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
const shelf = await createShelf({ ...skillDirOptions(dir), stateDir });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const start = performance.now();
shelf.match(messages[0] as string);
const ms = performance.now() - start;
const { profile } = (await session.post("Profiler.stop")) as {
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
};
if (out) fs.writeFileSync(out, JSON.stringify(profile));

const selfTime = new Map<number, number>();
for (const [i, id] of profile.samples.entries())
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const keyOf = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || "(anonymous)"} ${url.split("/").slice(-1)[0] || "(native)"}:${lineNumber + 1}`;
};
const byFunction = new Map<string, number>();
const total = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const t = selfTime.get(node.id) ?? 0;
  const file = node.callFrame.url.split("/").slice(-1)[0] || "(native)";
  byFunction.set(keyOf(node), (byFunction.get(keyOf(node)) ?? 0) + t);
  byFile.set(file, (byFile.get(file) ?? 0) + t);
  // Each function on the sample's stack once (a recursive one is not counted twice).
  const seen = new Set<string>();
  for (let at: number | undefined = node.id; at !== undefined; at = parent.get(at)) {
    const key = keyOf(nodes.get(at) as ProfileNode);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + t);
  }
}
const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`);
console.log(`first match ${ms.toFixed(0)} ms (profiled)`);
console.log("-- self time");
console.log(top(byFunction, 40).join("\n"));
console.log("-- total time (self and callees)");
console.log(top(total, 40).join("\n"));
console.log("-- self time per file");
console.log(top(byFile, 12).join("\n"));
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
