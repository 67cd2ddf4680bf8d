/**
 * Cold start from a prebuilt shelf (`skillshelf build`) against scanning: each sample is a new
 * process that imports @skillshelf/core, creates the shelf and plans one model call
 * (load-cold-start.ts), alternating the two ways so load drifts hit both alike. Sets: the
 * copied corpus at 1,000 skills, an even 1,000-file part of the mirror, and the whole mirror.
 * `pnpm bench load-prebuilt` (add `--runs=N`, default 5; `--core=<dist/index.js>` times another
 * build of core, e.g. a clean snapshot of a commit, while the working tree is being edited;
 * `--baseline=<dist/index.js>` adds that build's prebuilt cold start to each sample, with a
 * prebuilt file it wrote itself, for a before/after in the same run).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSkillTree, MIRROR_DIR, mirrorSubset } from "./corpus.ts";
import { formatMs, median } from "./lib.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const runsArg = process.argv.find((a) => a.startsWith("--runs="));
const runs = runsArg ? Number(runsArg.slice("--runs=".length)) : 5;
const coreArg = process.argv.find((a) => a.startsWith("--core="))?.slice("--core=".length);
const core = coreArg ? path.resolve(coreArg) : undefined;
const baselineArg = process.argv.find((a) => a.startsWith("--baseline="))?.slice("--baseline=".length);
const baseline = baselineArg ? path.resolve(baselineArg) : undefined;
const MESSAGE = "write the release notes for the new version from the merged pull requests";

interface Sample {
  importMs: number;
  loadMs: number;
  planMs: number;
  totalMs: number;
  cpuMs: number;
  /** The main thread alone (null where the runtime cannot tell). */
  mainThreadCpuMs: number | null;
  skills: number;
  rssBytes: number;
}

function coldStart(root: string, dir: string, prebuilt: string | undefined, build = core): Sample {
  const out = execFileSync(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      path.join(here, "load-cold-start.ts"),
      root,
      dir,
      prebuilt ?? "none",
      MESSAGE,
    ],
    {
      cwd: here,
      encoding: "utf8",
      maxBuffer: 1 << 24,
      env: build ? { ...process.env, SKILLSHELF_CORE: build } : process.env,
    },
  );
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export async function run(): Promise<void> {
  const { buildPrebuiltShelf } = (await import(
    core ?? "@skillshelf/core"
  )) as typeof import("@skillshelf/core");
  const sets: Array<[string, string]> = [
    ["copied corpus · 1,000 files", buildSkillTree(1000)],
    ["mirror part · 1,000 files", mirrorSubset(1000)],
    ["mirror · 15,725 files", MIRROR_DIR],
  ];
  // The baseline's prebuilt file, written by the baseline itself (the format may differ).
  const buildBaseline = baseline
    ? ((await import(baseline)) as typeof import("@skillshelf/core")).buildPrebuiltShelf
    : undefined;
  const rows: string[][] = [];
  for (const [label, dir] of sets) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-prebuilt-"));
    const out = path.join(root, "prebuilt-shelf.bin");
    const buildStart = performance.now();
    const built = await buildPrebuiltShelf({ root, projectDirs: [dir], userDirs: [], out });
    const buildMs = performance.now() - buildStart;
    const baseRoot = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-prebuilt-base-"));
    const baseOut = path.join(baseRoot, "prebuilt-shelf.bin");
    const baseBuilt = await buildBaseline?.({
      root: baseRoot,
      projectDirs: [dir],
      userDirs: [],
      out: baseOut,
    });
    const scan: Sample[] = [];
    const pre: Sample[] = [];
    const basePre: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      scan.push(coldStart(root, dir, undefined));
      if (baseBuilt) basePre.push(coldStart(baseRoot, dir, baseOut, baseline));
      pre.push(coldStart(root, dir, out));
    }
    const ways: Array<[string, Sample[]]> = [["scan", scan]];
    if (baseBuilt) ways.push([`prebuilt, baseline (${mib(baseBuilt.bytes)})`, basePre]);
    ways.push([`prebuilt (${mib(built.bytes)}, built in ${formatMs(buildMs)})`, pre]);
    for (const [way, samples] of ways) {
      const m = (key: keyof Sample) => median(samples.map((s) => s[key] ?? Number.NaN));
      rows.push([
        `${label} — ${way}`,
        String(m("skills")),
        formatMs(m("importMs")),
        formatMs(m("loadMs")),
        formatMs(m("planMs")),
        `**${formatMs(m("totalMs"))}**`,
        formatMs(m("cpuMs")),
        Number.isNaN(m("mainThreadCpuMs")) ? "–" : formatMs(m("mainThreadCpuMs")),
        mib(m("rssBytes")),
      ]);
    }
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(baseRoot, { recursive: true, force: true });
  }
  console.log(
    `Fresh process per sample, median of ${runs} (wall; CPU = all threads, main = the main thread, whole span).\n`,
  );
  const header = [
    "set — way",
    "skills",
    "import",
    "createShelf",
    "first plan()",
    "total",
    "CPU",
    "main",
    "RSS",
  ];
  console.log(`| ${header.join(" | ")} |\n|---|${"---:|".repeat(header.length - 1)}`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
