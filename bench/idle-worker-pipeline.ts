// A measured prototype of the second-core idea (round 18, IDLE; not a library change): while
// createShelf runs, each skill the loader records is queued, and every 64 of them their index
// texts (name, description, whenToUse, triggers, examples, the kept body start's UTF-8) are
// posted to a worker thread that reads them into term ids with its own Vocabulary. After the
// load, the "first match" phase waits for the worker, adopts its terms into the (still empty)
// shared vocabulary, seeds each skill's terms (seedSkillTerms) and runs the first match.
// Needs core's dist with a one-line hook in dist/load/loader.js, after `this.files.set(loc.file, record);`:
//   if (record.skill && !isLostStub(record.skill)) globalThis.__skillshelfParsed?.(record.skill);
// (the library has no such hook; bench/RESULTS.md, round 18 IDLE). Mode "base" runs the same
// steps with no worker (the first match reads every skill itself).
// Prints the phases' wall and main-thread CPU, RSS, and a SHA-256 of the first 400 messages'
// MatchResults at the defaults and { nearMisses: 5 } (compare base and worker runs).
// WORKER_NICE=<1–19>: the worker thread lowers its own priority (Linux: that thread only).
// Usage: idle-worker-pipeline.ts base|worker <skills dir> <messages.json>
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Skill } from "@skillshelf/core";
import { skillDirOptions } from "./skill-dir.ts";

const dist = path.resolve(import.meta.dirname, "../packages/core/dist");
// Per-file modules, not the bundle: the same lazy-body, vocabulary and skill-index instances as the shelf's.
const { createShelf } = (await import(`${dist}/shelf.js`)) as typeof import("@skillshelf/core");
const { bodyStartUtf8 } = await import(`${dist}/load/lazy-body.js`);
const { sharedVocabulary } = await import(`${dist}/match/vocabulary.js`);
const { seedSkillTerms, termTuningKey } = await import(`${dist}/match/skill-index.js`);
const { DEFAULT_INDEX_TUNING } = await import(`${dist}/match/lexical-index.js`);
const [mode, dir, messagesFile] = process.argv.slice(2);
if ((mode !== "base" && mode !== "worker") || !dir || !messagesFile)
  throw new Error("usage: idle-worker-pipeline.ts base|worker <dir> <messages.json>");
const messages = (JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[]).slice(0, 400);
const cpu = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);

const workerCode = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  // "nice": on Linux, setpriority(PRIO_PROCESS, 0) changes the calling thread only.
  if (workerData.nice) require("node:os").setPriority(0, workerData.nice);
  const c0 = process.threadCpuUsage();
  const { Vocabulary } = await import(workerData.dist + "/match/vocabulary.js");
  const { readSkillTerms, DEFAULT_INDEX_TUNING } = await import(workerData.dist + "/match/lexical-index.js");
  const { deferBody } = await import(workerData.dist + "/load/lazy-body.js");
  const vocabulary = new Vocabulary();
  const out = [];
  let total = 0;
  // SYNC: flags[0] set by the main thread = stop and post what is read; flags[1] set here once posted.
  const flags = workerData.flags && new Int32Array(workerData.flags);
  let finished = false;
  parentPort.on("message", (batch) => {
    if (finished) return;
    if (flags && Atomics.load(flags, 0) === 1) batch = null;
    if (batch !== null) {
      for (const s of batch) {
        if (flags && Atomics.load(flags, 0) === 1) break;
        const skill = { name: s.name, description: s.description, whenToUse: s.whenToUse, triggers: s.triggers, examples: s.examples, body: s.body };
        if (s.head) deferBody(skill, "", () => "", false, Buffer.from(s.head.buffer, s.head.byteOffset, s.head.byteLength));
        const t = readSkillTerms(skill, vocabulary, DEFAULT_INDEX_TUNING);
        out.push(t);
        total += t.length;
      }
      if (!(flags && Atomics.load(flags, 0) === 1)) return;
    }
    finished = true;
    const buf = new Int32Array(total), offsets = new Int32Array(out.length + 1);
    let at = 0;
    out.forEach((t, i) => { buf.set(t, at); at += t.length; offsets[i + 1] = at; });
    const u = process.threadCpuUsage(c0);
    (workerData.port ?? parentPort).postMessage({ terms: vocabulary.terms, buf, offsets, cpu: (u.user + u.system) / 1000 }, [buf.buffer, offsets.buffer]);
    if (flags) { Atomics.store(flags, 1, 1); Atomics.notify(flags, 1); }
  });
})();
`;

/** What the worker posts back. */
interface Answer {
  terms: string[];
  buf: Int32Array;
  offsets: Int32Array;
  cpu: number;
}
/** The throwaway hook the patched loader calls (see the header). */
const hook = globalThis as { __skillshelfParsed?: ((skill: Skill) => void) | undefined };
const sent: Skill[] = [];
let queue: Skill[] = [];
let worker: Worker | undefined;
let cloneCpu = 0;
const flush = () => {
  const c = process.threadCpuUsage();
  worker!.postMessage(
    queue.map((s) => {
      const head = bodyStartUtf8(s);
      // A skill whose body is not deferred: its start as text (the worker reads it as readSkillTerms would).
      return {
        name: s.name,
        description: s.description,
        whenToUse: s.whenToUse,
        triggers: s.triggers,
        examples: s.examples,
        body: head ? "" : s.body,
        head,
      };
    }),
  );
  for (const s of queue) sent.push(s);
  queue = [];
  cloneCpu += cpu(process.threadCpuUsage(c));
};
const out: Record<string, unknown> = {
  mode:
    process.env.WORKER_FEED === "0"
      ? `${mode}-unfed`
      : process.env.WORKER_SYNC === "1" && mode === "worker"
        ? "worker-sync"
        : mode,
  nice: Number(process.env.WORKER_NICE ?? 0),
  load1: os.loadavg()[0],
};
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));

const t0 = performance.now();
const c0 = process.threadCpuUsage();
const p0 = process.cpuUsage();
let answer: Promise<Answer> | undefined;
// WORKER_SYNC=1: the first match does not wait for the worker's backlog: it tells the worker to stop, waits
// (Atomics.wait) until what it has read is posted, takes it synchronously (receiveMessageOnPort) and reads
// the skills the worker did not reach itself — the handoff a synchronous match() would need.
const sync = process.env.WORKER_SYNC === "1";
const flags = new Int32Array(new SharedArrayBuffer(8));
const channel = new MessageChannel();
if (mode === "worker") {
  worker = new Worker(workerCode, {
    eval: true,
    workerData: {
      dist,
      nice: Number(process.env.WORKER_NICE ?? 0),
      ...(sync && { flags: flags.buffer, port: channel.port2 }),
    },
    ...(sync && { transferList: [channel.port2] }),
  });
  answer = new Promise((resolve, reject) => {
    worker!.once("message", resolve);
    worker!.once("error", reject);
  });
  // WORKER_FEED=0: the worker is started (and imports core's modules) but given nothing during the load.
  if (process.env.WORKER_FEED !== "0")
    hook.__skillshelfParsed = (skill) => {
      queue.push(skill);
      if (queue.length === 64) flush();
    };
}
const shelf = await createShelf({ ...skillDirOptions(dir), stateDir });
hook.__skillshelfParsed = undefined;
if (worker) {
  if (queue.length > 0) flush();
  worker.postMessage(null);
}
out.loadWall = Math.round(performance.now() - t0);
out.loadMain = cpu(process.threadCpuUsage(c0));
out.loadProc = cpu(process.cpuUsage(p0));
out.cloneCpu = cloneCpu;
out.sent = sent.length;

const t1 = performance.now();
const c1 = process.threadCpuUsage();
const p1 = process.cpuUsage();
if (answer) {
  let got: Answer;
  if (sync) {
    Atomics.store(flags, 0, 1);
    Atomics.wait(flags, 1, 0);
    got = receiveMessageOnPort(channel.port1)?.message as Answer;
    out.seeded = got.offsets.length - 1;
  } else got = await answer;
  out.waited = Math.round(performance.now() - t1);
  out.workerCpu = Math.round(got.cpu);
  const vocabulary = sharedVocabulary();
  out.adopted = vocabulary.adoptTerms(got.terms);
  if (out.adopted) {
    const key = termTuningKey(DEFAULT_INDEX_TUNING);
    for (let i = 0; i + 1 < got.offsets.length; i++)
      seedSkillTerms(sent[i], got.buf.subarray(got.offsets[i], got.offsets[i + 1]), vocabulary, key);
  }
  await worker!.terminate();
}
shelf.match(messages[0] as string);
out.firstWall = Math.round(performance.now() - t1);
out.firstMain = cpu(process.threadCpuUsage(c1));
out.firstProc = cpu(process.cpuUsage(p1));
out.totalWall = Math.round(performance.now() - t0);
out.rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
const hash = createHash("sha256");
for (const m of messages) {
  hash.update(JSON.stringify(shelf.match(m)));
  hash.update(JSON.stringify(shelf.match(m, { nearMisses: 5 })));
}
out.answers = hash.digest("hex").slice(0, 16);
channel.port1.close();
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
console.log(JSON.stringify(out));
