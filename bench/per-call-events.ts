// The event log's share of a new request: the `candidates` event a session emits for each
// request, from stage 1's real results on a shelf, into the default JSONL sink. Prints one JSON
// line: the median over rounds of the mean wall time of `emit()` per event (what the request
// waits for), and of the process CPU time per event of the whole batch (emit plus the batch's
// redaction, serialisation and write, up to `flush()`). Each round emits every request once,
// made distinct per round.
// Usage: per-call-events.ts <skills dir> <messages.json> [rounds];
// SKILLSHELF_CORE=<dist/index.js> measures another build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SkillEvent } from "@skillshelf/core";

const { createShelf, jsonlEventSink } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");
const [dir, messagesFile, roundsArg] = process.argv.slice(2);
if (!dir || !messagesFile) throw new Error("usage: per-call-events.ts <skills dir> <messages.json> [rounds]");
const rounds = Number(roundsArg ?? 5);
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];

const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-events-"));
const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [] });
const session = globalThis.crypto.randomUUID();
const eventsOf = (round: number): SkillEvent[] =>
  messages.map((text) => {
    const message = `${text} (${round})`;
    const match = shelf.match(message);
    return {
      type: "candidates",
      at: new Date().toISOString(),
      message,
      candidates: match.candidates,
      vetoed: match.vetoed,
      ambiguous: match.ambiguous,
      session,
    };
  });

const sink = jsonlEventSink(path.join(root, "state", "events.jsonl"));
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const emitUs: number[] = [];
const batchCpuUs: number[] = [];
for (let round = -1; round < rounds; round++) {
  const events = eventsOf(round);
  const cpuStart = cpuUs();
  const start = performance.now();
  for (const event of events) sink.emit(event);
  const emitted = performance.now();
  await sink.flush();
  const cpuEnd = cpuUs();
  // Round -1 warms up.
  if (round >= 0) {
    emitUs.push(((emitted - start) * 1000) / events.length);
    batchCpuUs.push((cpuEnd - cpuStart) / events.length);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] as number) * 100) / 100;
};
fs.rmSync(root, { recursive: true, force: true });
console.log(
  JSON.stringify({
    events: messages.length,
    rounds,
    emitUs: median(emitUs),
    batchCpuUs: median(batchCpuUs),
    load: os.loadavg()[0],
  }),
);
