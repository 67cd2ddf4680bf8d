// Who grows V8's young generation at mirror scale: the load, or the first `match()`? V8 doubles
// new space whenever more bytes survived scavenges since its last growth than its capacity,
// and pages of new space count in RSS once touched. This loads the shelf, reads new space's
// size, then does one of three things and reads it again:
// - match: the first `shelf.match()` (the stage-1 index build);
// - garbage: as many bytes of short-lived objects as that build allocates (≈ 150 MiB on the
//   mirror), nothing kept;
// - none: nothing (a timer of 200 ms).
// Prints one JSON line: new space's size (both semi-spaces) after the load and after the step,
// scavenges in the step, RSS after it, all in MiB.
// Usage: first-match-young-gen.ts <skills dir> <messages.json> match|garbage|none;
// SKILLSHELF_CORE=<dist/index.js> picks the build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import { skillDirOptions } from "./skill-dir.ts";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");

const [dir, messagesFile, step = "match"] = process.argv.slice(2);
if (!dir || !messagesFile || !["match", "garbage", "none"].includes(step))
  throw new Error("usage: first-match-young-gen.ts <skills dir> <messages.json> match|garbage|none");
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const MiB = 1 << 20;
const newSpace = () =>
  (v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0) / MiB;

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
const shelf = await createShelf({ ...skillDirOptions(dir), stateDir });
const afterLoad = newSpace();
let scavenges = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry.detail as { kind?: number } | undefined)?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
      scavenges++;
});
observer.observe({ entryTypes: ["gc"] });

let sink = 0;
if (step === "match") shelf.match(messages[0] as string);
else if (step === "garbage") {
  // ≈ 150 MiB of small objects and strings, each kept for the next thousand only (so the
  // engine cannot leave them unallocated).
  const recent: unknown[] = new Array(1_000);
  for (let i = 0; i < 1_500_000; i++) {
    const item = { at: i, pair: [i, i + 1], text: `w${i}` };
    recent[i % 1_000] = item;
    sink += item.pair.length;
  }
} else await new Promise((resolve) => setTimeout(resolve, 200));
// The observer reports on a later turn.
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
console.log(
  JSON.stringify({
    step,
    newSpaceAfterLoadMiB: afterLoad,
    newSpaceAfterMiB: newSpace(),
    scavenges,
    rssMiB: Math.round(process.memoryUsage().rss / MiB),
    sink: sink > 0,
  }),
);
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
