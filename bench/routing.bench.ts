/**
 * Routing quality: stage-1 matching against two baselines on three real datasets
 * (routing-data.ts says how each becomes skills and cases, and how it is split).
 *
 * Methods, all run in the same process on the same skills and cases:
 * - skillshelf: `createMatcher()` with its defaults (the none-threshold included).
 * - skillshelf, ranking only: the same with `minScore: 0` (what recall costs the threshold).
 * - BM25 (wink), description: wink-bm25-text-search over each skill's description, with
 *   wink's recommended preparation (lower-case, tokenize, negations, stop words, stem).
 * - BM25 (wink), all fields: the same over name, description and examples.
 * - exact substring: a skill is a candidate when one of its phrases (its name in words; for
 *   CLINC also its example utterances) occurs verbatim (lower-cased) in the message.
 *
 * Metrics: recall@1/@3/@5 over the positives (an expected skill among the first k
 * candidates), none-accuracy over the "nothing applies" cases (no candidate at all).
 *
 * Run: `pnpm bench routing` (or `node … routing.bench.ts [--dev]` to see the dev split the
 * defaults were tuned on).
 */
import { createRequire } from "node:module";
import {
  createMatcher,
  DEFAULT_TUNING,
  evaluateRouting,
  type MatcherOptions,
  type MatchResult,
  type RoutingCase,
  type RoutingReport,
  type Skill,
} from "@skillshelf/core";
import { clinc, dotnet, metatool, nameWords, type RoutingSet } from "./routing-data.ts";

const require = createRequire(import.meta.url);
// CommonJS packages without types.
const bm25 = require("wink-bm25-text-search") as () => WinkEngine;
const nlp = require("wink-nlp-utils") as WinkNlp;

interface WinkEngine {
  defineConfig(config: { fldWeights: Record<string, number> }): void;
  definePrepTasks(tasks: unknown[]): void;
  addDoc(doc: Record<string, string>, id: number): void;
  consolidate(): void;
  search(text: string, limit?: number): [number, number][];
}
interface WinkNlp {
  string: Record<string, unknown>;
  tokens: Record<string, unknown>;
}

export type Router = (message: string) => MatchResult;

const result = (names: string[], scores: number[] = []): MatchResult => ({
  candidates: names.map((name, i) => ({ name, score: scores[i] ?? 0, reasons: [] })),
  vetoed: [],
  ambiguous: false,
});

export function winkRouter(skills: readonly Skill[], text: (s: Skill) => string): Router {
  const engine = bm25();
  engine.defineConfig({ fldWeights: { body: 1 } });
  engine.definePrepTasks([
    nlp.string.lowerCase,
    nlp.string.removeExtraSpaces,
    nlp.string.tokenize0,
    nlp.tokens.propagateNegations,
    nlp.tokens.removeWords,
    nlp.tokens.stem,
  ]);
  skills.forEach((s, i) => {
    engine.addDoc({ body: text(s) }, i);
  });
  engine.consolidate();
  return (message) => {
    const hits = engine.search(message, 5);
    return result(
      hits.map(([i]) => (skills[i] as Skill).name),
      hits.map(([, score]) => score),
    );
  };
}

export function substringRouter(skills: readonly Skill[], phrases: Map<string, string[]>): Router {
  const table = skills.map((s) => ({
    name: s.name,
    phrases: (phrases.get(s.name) ?? []).map((p) => p.toLowerCase()),
  }));
  return (message) => {
    const text = message.toLowerCase();
    const hits: { name: string; length: number }[] = [];
    for (const { name, phrases } of table) {
      let best = 0;
      for (const p of phrases) if (p.length > best && text.includes(p)) best = p.length;
      if (best > 0) hits.push({ name, length: best });
    }
    hits.sort((a, b) => b.length - a.length);
    return result(hits.slice(0, 5).map((h) => h.name));
  };
}

export interface MethodResult {
  method: string;
  report: RoutingReport;
}

export function routers(set: RoutingSet, tuning: MatcherOptions = {}): [string, Router][] {
  const ours = createMatcher(tuning);
  const ranking = createMatcher({ ...tuning, minScore: 0 });
  return [
    ["skillshelf", (m) => ours.match(set.skills, m)],
    ["skillshelf, ranking only", (m) => ranking.match(set.skills, m)],
    ["BM25 (wink), description", winkRouter(set.skills, (s) => s.description)],
    [
      "BM25 (wink), all fields",
      winkRouter(set.skills, (s) =>
        [nameWords(s.name), s.description, s.whenToUse ?? "", ...s.examples].join(" . "),
      ),
    ],
    ["exact substring", substringRouter(set.skills, set.substrings)],
  ];
}

export function evaluateSet(
  set: RoutingSet,
  cases: readonly RoutingCase[],
  tuning?: MatcherOptions,
): MethodResult[] {
  return routers(set, tuning).map(([method, route]) => ({ method, report: evaluateRouting(cases, route) }));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}`;

export function routingTable(
  rows: { set: string; cases: number; positives: number; nones: number; results: MethodResult[] }[],
): string {
  const lines = [
    "| set (cases: positives / none) | method | recall@1 | recall@3 | recall@5 | none-accuracy | ambiguous |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    for (const { method, report } of row.results) {
      const none = report.none.cases > 0 ? pct(report.none.accuracy) : "—";
      lines.push(
        `| ${row.set} (${row.positives} / ${row.nones}) | ${method} | ${pct(report.recallAt1)} | ${pct(report.recallAt3)} | ${pct(report.recallAt5)} | ${none} | ${method.startsWith("skillshelf") ? pct(report.ambiguous / report.cases) : "—"} |`,
      );
    }
  }
  return lines.join("\n");
}

export async function runRouting(
  options: { split?: "dev" | "test"; tuning?: MatcherOptions } = {},
): Promise<string> {
  const split = options.split ?? "test";
  const rows = [];
  for (const load of [metatool, clinc, dotnet]) {
    const set = load();
    const cases = split === "dev" ? set.dev : set.test;
    if (cases.length === 0) continue;
    const results = evaluateSet(set, cases, options.tuning);
    const positives = results[0]?.report.positives ?? 0;
    const nones = results[0]?.report.none.cases ?? 0;
    rows.push({ set: `${set.name} ${split}`, cases: cases.length, positives, nones, results });
  }
  return routingTable(rows);
}

/** The none-threshold's trade-off: recall@3 and none-accuracy of skillshelf at several `minScore`s. */
export function thresholdSweep(split: "dev" | "test", scores: readonly number[]): string {
  const sets = [metatool(), clinc(), dotnet()];
  const head = sets.map((s) => `${s.name} r@3 / none`).join(" | ");
  const lines = [`| minScore | ${head} |`, `|---:|${sets.map(() => "---:").join("|")}|`];
  for (const minScore of scores) {
    const cells = sets.map((set) => {
      const cases = split === "dev" ? set.dev : set.test;
      const matcher = createMatcher({ minScore });
      const r = evaluateRouting(cases, (m) => matcher.match(set.skills, m));
      return `${pct(r.recallAt3)} / ${r.none.cases > 0 ? pct(r.none.accuracy) : "—"}`;
    });
    lines.push(
      `| ${minScore}${minScore === DEFAULT_TUNING.minScore ? " (default)" : ""} | ${cells.join(" | ")} |`,
    );
  }
  return lines.join("\n");
}

/** Suite entry for run.ts: the test split (add `--dev` to see the split the defaults were tuned on). */
export async function run(): Promise<void> {
  const dev = process.argv.includes("--dev");
  console.log(
    `Split: ${dev ? "dev (what the defaults were tuned on)" : "test (never used for tuning)"}. Percentages.\n`,
  );
  console.log(await runRouting({ split: dev ? "dev" : "test" }));
  console.log(`\nThe none-threshold's trade-off (skillshelf, ${dev ? "dev" : "test"} split):\n`);
  console.log(thresholdSweep(dev ? "dev" : "test", [0, 0.15, 0.2, 0.25, 0.3, 0.35]));
}
