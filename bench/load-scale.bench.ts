/**
 * Scale: a shelf on real files as a host meets it, at sizes from 1,000 to the whole mirror.
 *
 * - Each row is a new process (load-real.ts): `createShelf`, the first `match()` (the index
 *   build), `refresh()` with nothing changed (the default, and every file stat'ed), later
 *   `match()` p50, and resident memory. Real mirror (../shared/data/skills-mirror, 15,725
 *   files from 527 repositories; parts of it taken evenly across it, corpus.ts) beside the
 *   copied corpus (the 939 corpus files repeated). Per-skill cost = load ÷ files.
 * - A managed write (`shelf.write`) at 1,000 and 10,000 skills, against a plain durable write
 *   of the same bytes (write, fsync, rename).
 * Also part of `pnpm bench load` and `pnpm bench match` (`scaleRows`).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createShelf } from "@skillshelf/core";
import { buildSkillTree, MIRROR_DIR, mirrorFiles, mirrorMessagesFile, mirrorSubset } from "./corpus.ts";
import { formatMs, median } from "./lib.ts";

interface RealScale {
  skills: number;
  diagnostics: number;
  loadMs: number;
  loadCpuMs: number;
  firstMatchMs: number;
  firstMatchCpuMs: number;
  refreshMs: number;
  fullRefreshMs: number;
  matchP50Ms: number;
  loadRssBytes: number;
  rssBytes: number;
  maxRssBytes: number;
  settledRssBytes: number;
  heapBytes: number;
  heapTotalBytes: number;
}

/** One figure set per new process; each field the median over `runs` processes. */
function realScale(dir: string, runs: number): RealScale {
  const script = fileURLToPath(new URL("./load-real.ts", import.meta.url));
  const messages = mirrorMessagesFile();
  const results = Array.from({ length: runs }, () => {
    const out = execFileSync(process.execPath, [...process.execArgv, script, dir, messages], {
      encoding: "utf8",
      maxBuffer: 1 << 24,
    });
    return JSON.parse(out.trim().split("\n").pop() as string) as RealScale;
  });
  const pick = (key: keyof RealScale) => median(results.map((r) => r[key]));
  return Object.fromEntries(Object.keys(results[0]!).map((k) => [k, pick(k as keyof RealScale)])) as never;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const show = (ms: number) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : formatMs(ms));

function countFiles(dir: string): number {
  let n = 0;
  for (const a of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!a.isDirectory() || a.name.startsWith(".")) continue;
    const sub = path.join(dir, a.name);
    if (fs.existsSync(path.join(sub, "SKILL.md"))) n++;
    else for (const b of fs.readdirSync(sub)) if (fs.existsSync(path.join(sub, b, "SKILL.md"))) n++;
  }
  return n;
}

/** The scale table: real mirror parts and the whole mirror, then the copied corpus. */
export async function scaleRows(runs = 3, print: (text: string) => void = console.log): Promise<void> {
  const total = mirrorFiles().length;
  const sets: Array<[label: string, dir: string]> = [
    ["mirror part · 1,000 files", mirrorSubset(1_000)],
    ["mirror part · 5,000 files", mirrorSubset(5_000)],
    [`**mirror · ${total.toLocaleString("en-US")} files**`, MIRROR_DIR],
    ["copied corpus · 1,000 files", buildSkillTree(1_000)],
    ["copied corpus · 10,000 files", buildSkillTree(10_000)],
  ];
  print(
    `Each row: median of ${runs} new processes (load-real.ts), library imported before the clock starts. Wall time (CPU time of all threads in brackets); refresh() and match() are medians inside the process.\n`,
  );
  print(
    "| set | skills | `createShelf` | per file | first `match()` (index build) | `refresh()` default | `refresh({ full: true })` | `match()` p50 | RSS after load | RSS (peak) | RSS settled | heap (V8 holds) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const [label, dir] of sets) {
    const files = dir === MIRROR_DIR ? total : countFiles(dir);
    const r = realScale(dir, runs);
    print(
      `| ${label} | ${r.skills.toLocaleString("en-US")} | ${formatMs(r.loadMs)} (${formatMs(r.loadCpuMs)}) | ${((r.loadMs / files) * 1000).toFixed(0)} µs | ${formatMs(r.firstMatchMs)} (${formatMs(r.firstMatchCpuMs)}) | ${show(r.refreshMs)} | ${show(r.fullRefreshMs)} | ${show(r.matchP50Ms)} | ${mib(r.loadRssBytes)} | ${mib(r.rssBytes)} (${mib(r.maxRssBytes)}) | ${mib(r.settledRssBytes)} | ${mib(r.heapBytes)} (${mib(r.heapTotalBytes)}) |`,
    );
  }
}

/** A managed write against a plain durable write, on a private copy of the copied corpus. */
async function writeRows(): Promise<void> {
  console.log(
    "\nManaged write (`shelf.write(name, content, { expectedHash })`: validate, lock, compare-and-swap, keep the old version, atomic replace, then the shelf serves the new version), p50 of 40 writes alternating two contents, on a private copy of the copied corpus; beside it a plain durable write of the same bytes (write a temp file, fsync, rename).\n",
  );
  console.log("| skills | `shelf.write` p50 | plain durable write p50 |\n|---:|---:|---:|");
  for (const count of [1_000, 10_000]) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-write-"));
    try {
      const dir = path.join(tmp, "skills");
      fs.cpSync(buildSkillTree(count), dir, { recursive: true });
      const shelf = await createShelf({
        root: tmp,
        projectDirs: [dir],
        userDirs: [],
        builtinRoles: false,
        events: false,
      });
      const skill = shelf.skills()[Math.floor(shelf.skills().length / 2)]!;
      const original = fs.readFileSync(skill.file!, "utf8");
      const managed: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < 42; i++) {
        const content = `${original.trimEnd()}\n\nRevision ${i}.\n`;
        const start = performance.now();
        const result = await shelf.write(skill.name, content, { expectedHash: shelf.get(skill.name)!.hash });
        if (i >= 2) managed.push(performance.now() - start);
        if (shelf.get(skill.name)!.hash !== result.hash) throw new Error("write not served");
        const other = path.join(tmp, "plain.md");
        const startPlain = performance.now();
        const fd = fs.openSync(`${other}.tmp`, "w");
        fs.writeSync(fd, content);
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fs.renameSync(`${other}.tmp`, other);
        if (i >= 2) plain.push(performance.now() - startPlain);
      }
      await shelf.close();
      console.log(
        `| ${count.toLocaleString("en-US")} | ${formatMs(median(managed))} | ${formatMs(median(plain))} |`,
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

export async function run(): Promise<void> {
  await scaleRows();
  await writeRows();
}
