/**
 * Stage-1 speed and size: `match()` at 1,000 and 10,000 real skills (the corpus replicated,
 * corpus.ts); the index build — the first in a new process (nothing warm, as at a host's
 * startup), by a new matcher in a warm process, and after a hot reload that edited one skill
 * (only that skill is read again), each in new processes (fresh-index.ts) — and the index's
 * memory; beside them the same work with
 * wink-bm25-text-search, the maintained BM25 library the routing benchmark uses as its
 * baseline (the reason skillshelf keeps its own index).
 *
 * Also: how honest the default token estimate is, against the cl100k and o200k tokenizers
 * (js-tiktoken), on the corpus descriptions and on Chinese/Japanese text.
 *
 * Messages: MetaTool Task1 queries (half need no tool) and requests written from corpus
 * descriptions, rotated so no call repeats the previous message.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMatcher, createShelf, estimateTokens, type Skill } from "@skillshelf/core";
import { getEncoding } from "js-tiktoken";
import { buildSkillTree, corpusFiles, DATA_DIR } from "./corpus.ts";
import { formatMs, measure } from "./lib.ts";
import { scaleRows } from "./load-scale.bench.ts";
import { winkRouter } from "./routing.bench.ts";
import { loadSkillsOf } from "./skill-dir.ts";

function messages(): string[] {
  const task1 = JSON.parse(
    fs.readFileSync(path.join(DATA_DIR, "routing", "metatool", "Task1.json"), "utf8"),
  ) as {
    query: string;
  }[];
  const fromSkills = corpusFiles()
    .slice(0, 200)
    .map((f) => /\ndescription:\s*["']?(.+)/u.exec(f.text)?.[1] ?? "")
    .filter((d) => d.length > 20)
    .map((d) => `Please help me: ${d.split(/\s+/u).slice(0, 12).join(" ")}`);
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const q = task1[i]?.query;
    if (q) out.push(q);
    const s = fromSkills[i];
    if (s) out.push(s);
  }
  return out;
}

const loadSkills = (dir: string): Promise<Skill[]> => loadSkillsOf(createShelf, dir);

const median = (samples: number[]) => samples.sort((a, b) => a - b)[samples.length >> 1] as number;

/** CPU time (process.cpuUsage) of `fn`, median of `runs`: one-shot work on a shared machine. */
function time(fn: () => unknown, runs = 3): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000);
  }
  return median(samples);
}

interface IndexBuilds {
  first: number;
  again: number;
  rebuild: number;
  heapBytes: number;
  matcherBytes: number;
}

/** Index builds in new processes (fresh-index.ts says which), each figure the median of `runs` processes. */
function indexBuilds(dir: string, runs = 3): IndexBuilds {
  const script = fileURLToPath(new URL("./fresh-index.ts", import.meta.url));
  const results = Array.from({ length: runs }, () => {
    // Same flags as this process (e.g. running against the TypeScript sources).
    const out = execFileSync(process.execPath, [...process.execArgv, script, dir], { encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").pop() as string) as IndexBuilds;
  });
  const pick = (key: keyof IndexBuilds) => median(results.map((r) => r[key]));
  return {
    first: pick("first"),
    again: pick("again"),
    rebuild: pick("rebuild"),
    heapBytes: pick("heapBytes"),
    matcherBytes: pick("matcherBytes"),
  };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const show = (ms: number) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : formatMs(ms));

async function speed(list: readonly string[]): Promise<void> {
  console.log("| task | median (p50) | samples |\n|---|---:|---:|");
  const sizes: string[] = [];
  for (const count of [1_000, 10_000]) {
    const dir = buildSkillTree(count);
    const skills = await loadSkills(dir);
    const label = count.toLocaleString("en-US");
    const builds = indexBuilds(dir);
    const matcher = createMatcher();
    matcher.match(skills, "build the index");
    const wink = winkRouter(skills, (s) => s.description);
    let m = 0;
    let w = 0;
    const rows = await measure(
      [
        [`match() · ${label} skills`, () => matcher.match(skills, list[m++ % list.length] as string)],
        [
          `wink-bm25 search · ${label} skills (description only)`,
          () => wink(list[w++ % list.length] as string),
        ],
      ],
      { iterations: 500, time: 2000, warmupIterations: 50 },
    );
    for (const row of rows) console.log(`| ${row.name} | ${show(row.median)} | ${row.samples} |`);
    const winkBuild = time(() => winkRouter([...skills], (s) => s.description));
    sizes.push(
      `| ${label} | ${formatMs(builds.first)} | ${formatMs(builds.again)} | ${formatMs(builds.rebuild)} | ${mib(builds.matcherBytes)} | ${mib(builds.heapBytes)} | ${formatMs(winkBuild)} |`,
    );
  }
  console.log(
    "\nIndex build, CPU time, each the median of 3 new processes with the skills loaded (fresh-index.ts): the first match() of the process (nothing warm: JIT and vocabulary empty, as at a host's startup); a build by a new matcher once the process is warm (median of 3); and the rebuild after a hot reload that edited one skill (median of 7; only the edited skill is read again). Memory (V8 heap + ArrayBuffers, growth after GC): what one matcher keeps (index and per-skill entries), and everything the first build leaves in a new process (also the shared vocabulary). wink-bm25: CPU time, median of 3.\n",
  );
  console.log(
    "| skills | index build, first in a process | index build, warm process | rebuild after one skill edited | index memory (matcher) | heap after first build | wink-bm25 index build |\n|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const line of sizes) console.log(line);
}

function tokenEstimate(): void {
  const cl = getEncoding("cl100k_base");
  const o200 = getEncoding("o200k_base");
  const english = corpusFiles()
    .map((f) => /\ndescription:\s*(.+)/u.exec(f.text)?.[1] ?? "")
    .filter((d) => d.length > 0);
  const seeds = path.join(DATA_DIR, "..", "seeds");
  const chinese = fs
    .readdirSync(seeds)
    .filter((f) => f.endsWith(".txt"))
    .flatMap((f) => fs.readFileSync(path.join(seeds, f), "utf8").split("\n"))
    .filter((l) => l.trim().length > 20);
  const japanese = [
    "東京の天気を教えてください。明日の予定も確認したいです。",
    "このファイルをレビューして、バグがあれば修正してください。",
    "テストを実行して、失敗したものを一覧にしてください。",
    "新しいブログ記事の下書きを作成し、見出しを三つ付けてください。",
  ];
  console.log(
    "\nToken estimate (`estimateTokens`, the catalog default) against real tokenizers: totals, and the per-text ratio estimate ÷ o200k (p10 / p50 / p90).\n",
  );
  console.log(
    "| text | items | estimate | cl100k | o200k | estimate ÷ o200k p10 / p50 / p90 |\n|---|---:|---:|---:|---:|---|",
  );
  for (const [name, texts] of [
    ["corpus descriptions (English)", english],
    ["seed documents, lines (Chinese)", chinese],
    ["requests (Japanese)", japanese],
  ] as const) {
    let e = 0;
    let c = 0;
    let o = 0;
    const ratios: number[] = [];
    for (const t of texts) {
      const est = estimateTokens(t);
      const oc = o200.encode(t).length;
      e += est;
      c += cl.encode(t).length;
      o += oc;
      ratios.push(est / oc);
    }
    ratios.sort((a, b) => a - b);
    const q = (p: number) => (ratios[Math.floor((ratios.length - 1) * p)] ?? 0).toFixed(2);
    console.log(`| ${name} | ${texts.length} | ${e} | ${c} | ${o} | ${q(0.1)} / ${q(0.5)} / ${q(0.9)} |`);
  }
}

export async function run(): Promise<void> {
  const list = messages();
  console.log(
    `${list.length} distinct messages (MetaTool Task1 queries + requests from corpus descriptions).\n`,
  );
  await speed(list);
  console.log(
    "\nOn real files (the mirror and parts of it, beside the copied corpus; load-scale.bench.ts): the first `match()` of a new process builds the index; p50 over the mirror requests.\n",
  );
  await scaleRows(3);
  tokenEstimate();
}
