// Where a turn's CPU goes, bare agent against the same agent with the adapter: a CPU profile
// (node:inspector) of the measured turns only — set-up and warm-up are not in it, which a
// whole-run `--cpu-prof` cannot tell apart (round 13). One-call turns ("Done."), every turn a
// new request. Prints, per package, the self time per turn of each profile (bare, adapted,
// bare again, adapted again: the second pair shows the noise), and the adapted profile's time
// under each outermost skillshelf function (what core and the adapter cost, callees included).
// Usage: per-call-profile.ts <langchain|ai-sdk|ai-sdk-stream|mastra> <skills dir> <messages.json> [turns]
import fs from "node:fs";
import inspector from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import { type CreateHarness, conversationFor } from "./per-call-script.ts";

const [framework, dir, messagesFile, turnsArg] = process.argv.slice(2);
if (!framework || !dir || !messagesFile) {
  throw new Error("usage: per-call-profile.ts <framework> <skills dir> <messages.json> [turns]");
}
const turns = Number(turnsArg ?? 400);
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];

async function harnessModule(name: string): Promise<CreateHarness> {
  if (name === "langchain") return (await import("./per-call-langchain.ts")).createHarness;
  if (name === "ai-sdk") return (await import("./per-call-ai-sdk.ts")).harnessFor("generate");
  if (name === "ai-sdk-stream") return (await import("./per-call-ai-sdk.ts")).harnessFor("stream");
  if (name === "mastra") return (await import("./per-call-mastra.ts")).createHarness;
  throw new Error(`unknown framework ${name}`);
}
const createHarness = await harnessModule(framework);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-profile-"));
const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [], onDiagnostic: () => undefined });
const bare = await createHarness(undefined);
const adapted = await createHarness(shelf);
const done = [{ text: "Done." }];
for (let i = 0; i < 100; i++) {
  await bare.turn(conversationFor(messages[i % messages.length]!), done);
  await adapted.turn(conversationFor(messages[i % messages.length]!), done);
}

interface Profile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}
const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
const profiles: Record<string, Profile> = {};
const wall: Record<string, number> = {};
for (const run of ["bare", "adapted", "bare again", "adapted again"]) {
  const harness = run.startsWith("bare") ? bare : adapted;
  await session.post("Profiler.start");
  const start = performance.now();
  for (let i = 0; i < turns; i++)
    await harness.turn(conversationFor(messages[(i * 7) % messages.length]!), done);
  wall[run] = (performance.now() - start) / turns;
  profiles[run] = (await session.post("Profiler.stop")).profile as Profile;
}
session.disconnect();

/** A frame's package: skillshelf's own by folder, else the node_modules package, node, or V8's. */
function packageOf(url: string, functionName: string): string {
  if (url === "") return `(${functionName.replace(/[()]/g, "")})`;
  if (url.includes("/packages/")) return `skillshelf/${url.split("/packages/")[1]!.split("/")[0]}`;
  const match = url.match(/node_modules\/(?:\.pnpm\/)?(@[^/@]+[/+][^/@]+|[^/@][^/@]*)/);
  if (match) return match[1]!.replace("+", "/");
  return url.startsWith("node:") ? "node" : "other";
}
function selfTimes(profile: Profile): Map<number, number> {
  const times = new Map<number, number>();
  for (const [i, id] of profile.samples.entries())
    times.set(id, (times.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  return times;
}
const perTurn = (us: number) => Number((us / 1000 / turns).toFixed(3));

const byPackage: Record<string, Record<string, number>> = {};
for (const [run, profile] of Object.entries(profiles)) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const [id, us] of selfTimes(profile)) {
    const frame = nodes.get(id)!.callFrame;
    const key = packageOf(frame.url, frame.functionName);
    byPackage[key] ??= {};
    byPackage[key][run] = (byPackage[key][run] ?? 0) + us;
  }
}
const packages = Object.entries(byPackage)
  .map(([name, runs]) => ({
    name,
    ...Object.fromEntries(Object.entries(runs).map(([r, us]) => [r, perTurn(us)])),
  }))
  .sort((a, b) => ((b as Record<string, number>).adapted ?? 0) - ((a as Record<string, number>).adapted ?? 0))
  .slice(0, 14);

// The adapted profile, each sample charged to its outermost skillshelf frame (callees included).
const outermost = new Map<string, number>();
for (const run of ["adapted", "adapted again"]) {
  const profile = profiles[run]!;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  for (const [id, us] of selfTimes(profile)) {
    let found: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at)!.callFrame;
      if (frame.url.includes("/packages/"))
        found = `${frame.functionName || "(anonymous)"} ${frame.url.split("/packages/")[1]}:${frame.lineNumber}`;
    }
    if (found) outermost.set(found, (outermost.get(found) ?? 0) + us / 2);
  }
}
const skillshelf = [...outermost]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 10)
  .map(([frame, us]) => ({ frame, msPerTurn: perTurn(us) }));

console.log(
  JSON.stringify(
    { framework, skills: shelf.skills().length, turns, wallMsPerTurn: wall, packages, skillshelf },
    null,
    1,
  ),
);
await shelf.close();
fs.rmSync(root, { recursive: true, force: true });
