/**
 * Stage-1 speed and size: `match()` at 1,000 and 10,000 real skills (the corpus replicated,
 * corpus.ts), the one-off index build, and the index's memory at 10,000 skills; beside them
 * the same work with wink-bm25-text-search, the maintained BM25 library the routing
 * benchmark uses as its baseline (the reason skillshelf keeps its own index).
 *
 * Also: how honest the default token estimate is, against the cl100k and o200k tokenizers
 * (js-tiktoken), on the corpus descriptions and on Chinese/Japanese text.
 *
 * Messages: MetaTool Task1 queries (half need no tool) and requests written from corpus
 * descriptions, rotated so no call repeats the previous message.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { createMatcher, createShelf, estimateTokens, type Skill } from "@skillshelf/core";
import { getEncoding } from "js-tiktoken";
import { buildSkillTree, corpusFiles } from "./corpus.ts";
import { formatMs, measure } from "./lib.ts";
import { winkRouter } from "./routing.bench.ts";

const DATA_DIR = fileURLToPath(new URL("../../shared/data/", import.meta.url));

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

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

async function loadSkills(count: number): Promise<Skill[]> {
  const dir = buildSkillTree(count);
  const shelf = await createShelf({
    root: path.dirname(dir),
    projectDirs: [dir],
    userDirs: [],
    builtinRoles: false,
    events: false,
  });
  const skills = [...shelf.skills()];
  await shelf.close();
  return skills;
}

/** CPU time (process.cpuUsage) of `fn`, median of `runs`: one-shot work on a shared machine. */
function time(fn: () => unknown, runs = 3): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000);
  }
  return samples.sort((a, b) => a - b)[runs >> 1] as number;
}

const show = (ms: number) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : formatMs(ms));

async function speed(list: readonly string[]): Promise<void> {
  console.log("| task | median (p50) | samples |\n|---|---:|---:|");
  const sizes: string[] = [];
  for (const count of [1_000, 10_000]) {
    const skills = await loadSkills(count);
    const label = count.toLocaleString("en-US");
    const matcher = createMatcher();
    const before = heapUsed();
    const buildMs = time(() => createMatcher().match([...skills], "warm up"));
    matcher.match(skills, "build the index");
    const indexBytes = heapUsed() - before;
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
    // A hot reload after one edit: a new array, one new Skill object, the others unchanged.
    const edited = [...skills];
    edited[0] = { ...(skills[0] as Skill), description: `${(skills[0] as Skill).description} (edited)` };
    const rebuildMs = time(() => createMatcher().match(edited, "after an edit"));
    sizes.push(
      `| ${label} | ${formatMs(buildMs)} | ${formatMs(rebuildMs)} | ${(indexBytes / 2 ** 20).toFixed(1)} MiB | ${formatMs(winkBuild)} |`,
    );
  }
  console.log(
    "\nIndex build (first match() on a new skills array; the shelf hands out the same array until something changes), CPU time, median of 3; and its memory (heap growth after GC, index kept alive by the matcher):\n",
  );
  console.log(
    "| skills | skillshelf index build | rebuild after one skill changed | skillshelf index memory | wink-bm25 index build |\n|---:|---:|---:|---:|---:|",
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
  tokenEstimate();
}
