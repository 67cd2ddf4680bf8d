/**
 * A separate process doing managed writes, for the fault tests (started by spawn-writer.ts).
 *
 *   loop <projectRoot> <keep>  warm up, print "ready", wait for a "go" line on stdin, then
 *                              write iteration after iteration until killed, printing
 *                              "wrote <version>" after each write returns. (The parent starts
 *                              the next writer while the current one runs: the "go" keeps
 *                              process start-up out of the window the kill lands in.)
 *   race <projectRoot> <keep>  for each stdin line "<expectedHash> <tag> <startAtMs>":
 *                              wait until startAtMs, write the next iteration tagged <tag>,
 *                              print {"ok":true,"hash":…} or {"ok":false,"code":…}.
 *   events <dir> <count> <bytes>  after "go", emit <count> events whose message is <bytes>
 *                              long into <dir>/events.jsonl in one batch, print "done".
 *   events-end <dir> <count>   emit <count> events with the default text policy into
 *                              <dir>/events.jsonl, print "emitted" and end without flush().
 *   usage <dir> <count>        after "go", record <count> uses of skill "shared" in
 *                              <dir>/usage.json, print "done".
 *   usage-exit <dir> <count>   record <count> uses of "shared" with the default delayed
 *                              write, then process.exit() at once.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { jsonlEventSink } from "../../events/jsonl-sink.js";
import { parseSkill } from "../../parse/parse-skill.js";
import { createFileUsageStore } from "../../usage/file-store.js";
import { SkillWriteError } from "../errors.js";
import { sha256 } from "../hash.js";
import { withFileLock } from "../lock.js";
import { bumpVersion, readVersion } from "../version-bump.js";
import { createSkillStore } from "../writer.js";
import { FAULT_SKILL, nextFaultContent } from "./fault-skill.js";
import { makeSkillFolder } from "./skill-folder.js";

const [mode, root, keep, extra] = process.argv.slice(2);
const folder = await makeSkillFolder(root);
const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, keep: Number(keep) });
const file = folder.fileOf(FAULT_SKILL);

/** Runs the code paths of a write once without touching the skill, so the first real write is not slowed by start-up. */
async function warmUp(): Promise<void> {
  const text = (await readFile(file)).toString("utf8");
  parseSkill(bumpVersion(nextFaultContent(text), readVersion(text)).text, { path: file });
  const scratch = join(folder.root, `warmup-${process.pid}`);
  await writeFile(scratch, "");
  await withFileLock(scratch, async () => {});
  await rm(scratch);
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

if (mode === "loop") {
  await warmUp();
  process.stdout.write("ready\n");
  await lines.next(); // "go"
  for (;;) {
    const current = await readFile(file);
    const result = await store.write(FAULT_SKILL, nextFaultContent(current.toString("utf8")), {
      expectedHash: sha256(current),
    });
    process.stdout.write(`wrote ${result.version}\n`);
  }
} else if (mode === "race") {
  await warmUp();
  process.stdout.write("ready\n");
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    const [expectedHash, tag, startAt] = next.value.split(" ");
    const current = (await readFile(file)).toString("utf8");
    const content = nextFaultContent(current, tag);
    const wait = Number(startAt) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    try {
      const result = await store.write(FAULT_SKILL, content, { expectedHash: expectedHash! });
      process.stdout.write(`${JSON.stringify({ ok: true, hash: result.hash })}\n`);
    } catch (error) {
      const code = error instanceof SkillWriteError ? error.code : String(error);
      process.stdout.write(`${JSON.stringify({ ok: false, code })}\n`);
    }
  }
}

/** A `candidates` event for `message` that offered nothing (what a request writes to the log). */
function candidatesEvent(message: string) {
  return {
    type: "candidates" as const,
    at: new Date().toISOString(),
    message,
    candidates: [],
    vetoed: [],
    ambiguous: false,
  };
}

if (mode === "events") {
  const sink = jsonlEventSink(join(root!, "events.jsonl"), { text: "full", maxBytes: 0 });
  const message = `${process.pid}:`.padEnd(Number(extra), "x");
  process.stdout.write("ready\n");
  await lines.next(); // "go"
  for (let i = 0; i < Number(keep); i++) {
    sink.emit(candidatesEvent(message));
  }
  await sink.flush();
  process.stdout.write("done\n");
} else if (mode === "events-end") {
  const sink = jsonlEventSink(join(root!, "events.jsonl"));
  for (let i = 0; i < Number(keep); i++) {
    const message = `${i}: reset the password for alice to hunter2`;
    sink.emit(candidatesEvent(message));
  }
  process.stdout.write("emitted\n");
} else if (mode === "usage") {
  // Every use its own locked merge, so the processes contend on each one.
  const usage = createFileUsageStore({ dir: root!, writeDelay: 0 });
  process.stdout.write("ready\n");
  await lines.next(); // "go"
  for (let i = 0; i < Number(keep); i++) usage.record("shared");
  process.stdout.write("done\n");
} else if (mode === "usage-exit") {
  // The default write-behind store, and an exit without flush() or close(): the exit writes.
  const usage = createFileUsageStore({ dir: root! });
  for (let i = 0; i < Number(keep); i++) usage.record("shared");
  process.exit(0);
}
