// What reading the index's terms on the second core (a worker thread) would cost and save, for
// an honest estimate before building it: no library change, core's dist modules used directly.
// In a fresh process:
// - mode "files": a worker started with the load reads and parses every SKILL.md under the dir
//   itself and reads each skill's terms into its own Vocabulary, while the main thread runs
//   createShelf. Prints the load's wall and main-thread CPU (slowed by sharing the cores?), when
//   the worker finished relative to the load's end, and the worker's CPU.
// - mode "texts": the load first, then the served skills' texts (name, description, whenToUse,
//   triggers, examples, the kept body start's UTF-8) posted to a worker in batches of 64: the
//   main thread's cost of cloning them out, the worker's reading time, and the main thread's cost
//   of taking its terms and term ids back (a new Vocabulary adopting the terms, a view per skill).
// Usage: idle-worker-estimate.ts files|texts <skills dir>
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { skillDirOptions } from "./skill-dir.ts";

const dist = path.resolve(import.meta.dirname, "../packages/core/dist");
// The per-file modules (not the bundle), so the kept body starts are seen through the same lazy-body module.
const { createShelf } = (await import(`${dist}/shelf.js`)) as typeof import("@skillshelf/core");
const { Vocabulary } = await import(`${dist}/match/vocabulary.js`);
const { bodyStartUtf8 } = await import(`${dist}/load/lazy-body.js`);
const [mode, dir] = process.argv.slice(2);
if ((mode !== "files" && mode !== "texts") || !dir)
  throw new Error("usage: idle-worker-estimate.ts files|texts <dir>");
const cpu = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const workerCode = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
(async () => {
  const t0 = performance.now();
  const c0 = process.threadCpuUsage();
  const dist = workerData.dist;
  const { Vocabulary } = await import(dist + "/match/vocabulary.js");
  const { readSkillTerms, DEFAULT_INDEX_TUNING } = await import(dist + "/match/lexical-index.js");
  const { parseSkillStart } = await import(dist + "/parse/parse-skill.js");
  const { deferBody, BODY_HEAD_CHARS } = await import(dist + "/load/lazy-body.js");
  const vocabulary = new Vocabulary();
  const out = [];
  let total = 0;
  const readOne = (skill) => { const t = readSkillTerms(skill, vocabulary, DEFAULT_INDEX_TUNING); out.push(t); total += t.length; };
  const finish = (extra) => {
    const buf = new Int32Array(total); const offsets = new Int32Array(out.length + 1); let at = 0;
    out.forEach((t, i) => { buf.set(t, at); at += t.length; offsets[i + 1] = at; });
    parentPort.postMessage({ terms: vocabulary.terms, buf, offsets, wall: performance.now() - t0,
      cpu: (() => { const u = process.threadCpuUsage(c0); return (u.user + u.system) / 1000; })(), at: performance.now() + performance.timeOrigin, ...extra }, [buf.buffer, offsets.buffer]);
  };
  if (workerData.mode === "files") {
    let files = 0;
    const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name === "SKILL.md") {
        files++;
        const bytes = fs.readFileSync(full);
        const start = parseSkillStart(bytes, { path: full }, BODY_HEAD_CHARS);
        if (!start.result.skill) continue;
        const skill = { ...start.result.skill };
        if (start.truncated && start.head) deferBody(skill, skill.body, () => "", start.mentionsArguments, start.head);
        readOne(skill);
      } } };
    walk(workerData.dir);
    finish({ files });
  } else {
    parentPort.on("message", (batch) => {
      if (batch === null) return finish({});
      for (const s of batch) {
        const skill = { name: s.name, description: s.description, whenToUse: s.whenToUse, triggers: s.triggers, examples: s.examples, body: s.body };
        if (s.head) deferBody(skill, s.body, () => "", false, Buffer.from(s.head.buffer, s.head.byteOffset, s.head.byteLength));
        readOne(skill);
      }
    });
  }
})();
`;
/** What the worker posts back. */
interface Answer {
  terms: string[];
  buf: Int32Array;
  offsets: Int32Array;
  wall: number;
  cpu: number;
  files?: number;
}
const result = (w: Worker) =>
  new Promise<Answer>((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
  });
const shelfOpts = {
  ...skillDirOptions(dir),
  stateDir: path.join(os.tmpdir(), `skillshelf-idle-${process.pid}`),
};
const out: Record<string, unknown> = { mode, load1: os.loadavg()[0] };

const start = performance.now();
const c0 = process.threadCpuUsage();
const worker =
  mode === "files" ? new Worker(workerCode, { eval: true, workerData: { dist, dir, mode } }) : undefined;
const answer = worker && result(worker);
const shelf = await createShelf(shelfOpts);
out.loadWall = Math.round(performance.now() - start);
out.loadMainCpu = Math.round(cpu(process.threadCpuUsage(c0)));
const skills = shelf.skills();
out.skills = skills.length;
let got: Answer;
if (mode === "files") {
  const w0 = performance.now();
  got = (await answer) as Answer;
  out.waitedAfterLoad = Math.round(performance.now() - w0);
  out.workerFiles = got.files;
} else {
  const w = new Worker(workerCode, { eval: true, workerData: { dist, dir, mode } });
  const r = result(w);
  await new Promise((res) => setTimeout(res, 300)); // let the worker boot; not what is measured
  const t = performance.now();
  const tc = process.threadCpuUsage();
  for (let i = 0; i < skills.length; i += 64) {
    const batch = skills.slice(i, i + 64).map((s) => {
      const head = bodyStartUtf8(s);
      return {
        name: s.name,
        description: s.description,
        whenToUse: s.whenToUse,
        triggers: s.triggers,
        examples: s.examples,
        body: head ? "" : s.body.slice(0, 3000),
        head,
      };
    });
    w.postMessage(batch);
  }
  w.postMessage(null);
  out.cloneOutMainCpu = Math.round(cpu(process.threadCpuUsage(tc)));
  out.cloneOutWall = Math.round(performance.now() - t);
  got = await r;
  out.postToAnswerWall = Math.round(performance.now() - t);
  await w.terminate();
}
out.workerWall = Math.round(got.wall);
out.workerCpu = Math.round(got.cpu);
out.workerTerms = got.terms.length;
out.termIdsMiB = +(got.buf.byteLength / 2 ** 20).toFixed(1);
// Taking the answer back: the terms into a new vocabulary, a view per skill.
const a = performance.now();
const ac = process.threadCpuUsage();
const v = new Vocabulary();
const adopted = v.adoptTerms(got.terms);
const views: Int32Array[] = [];
for (let i = 0; i + 1 < got.offsets.length; i++)
  views.push(got.buf.subarray(got.offsets[i], got.offsets[i + 1]));
out.adoptMainCpu = Math.round(cpu(process.threadCpuUsage(ac)));
out.adoptWall = Math.round(performance.now() - a);
out.adopted = adopted;
await worker?.terminate();
await shelf.close();
console.log(JSON.stringify(out));
