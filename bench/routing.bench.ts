/**
 * Routing quality: stage-1 matching against two baselines on three real datasets
 * (routing-data.ts says how each becomes skills and cases, and how it is split).
 *
 * Methods, all run in the same process on the same skills and cases:
 * - skillshelf: `createMatcher()` with its defaults (the none-threshold included).
 * - skillshelf, ranking only: the same with `minScore: 0` (what recall costs the threshold).
 * - skillshelf, before: the scorer before the everyday-word prior and familiarity (both off,
 *   its threshold 0.2), for the before/after comparison.
 * - BM25 (wink), description: wink-bm25-text-search over each skill's description, with
 *   wink's recommended preparation (lower-case, tokenize, negations, stop words, stem).
 * - BM25 (wink), all fields: the same over name, description and examples.
 * - BM25 (wink), all fields, threshold: the same with a none-threshold on its raw score, the
 *   highest whose recall@3 on the CLINC150 dev split is still skillshelf's (chosen in the run).
 * - exact substring: a skill is a candidate when one of its phrases (its name in words; for
 *   CLINC also its example utterances) occurs verbatim (lower-cased) in the message.
 *
 * - skillshelf, lone words weak: the option the dev-split choice rule picked for the lone-word
 *   rule and left off by default (`loneWordWeight: 0.7`, `minScore: 0.18`; bench/RESULTS.md).
 * - skillshelf, word pairs: the option the dev-split choice rule picked for word pairs and left
 *   off by default (`unpairedWeight: 0.9`, `minScore: 0.19`; bench/RESULTS.md).
 * - skillshelf, baseline: with `SKILLSHELF_BASELINE_CORE=<another build's dist/index.js>`, that
 *   build's `createMatcher()` at its defaults on the same skills and cases, in the same run
 *   (`SKILLSHELF_BASELINE_NAME` names it in the tables, e.g. a commit).
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
import {
  clinc,
  dotnet,
  metatool,
  metatoolWithForeignNegatives,
  nameWords,
  type RoutingSet,
} from "./routing-data.ts";

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

/** Another build of core to compare with in the same run (its matcher at its defaults), if asked for. */
const baselineCore = process.env.SKILLSHELF_BASELINE_CORE
  ? ((await import(process.env.SKILLSHELF_BASELINE_CORE)) as {
      createMatcher: typeof createMatcher;
      DEFAULT_TUNING: typeof DEFAULT_TUNING;
    })
  : undefined;
const BASELINE = `baseline (${process.env.SKILLSHELF_BASELINE_NAME ?? "SKILLSHELF_BASELINE_CORE"})`;

/** The stage-1 scorer before the everyday-word prior and familiarity: shelf-only informativeness. */
export const BEFORE: MatcherOptions = { everydayWords: false, familiarity: false, minScore: 0.2 };
/** The lone-word rule as the dev-split choice rule picked it, left off by default (bench/RESULTS.md). */
export const LONE_WORDS_WEAK = { loneWordWeight: 0.7, minScore: 0.18 } satisfies MatcherOptions;
/** Word pairs as the dev-split choice rule picked them, left off by default (bench/RESULTS.md). */
export const WORD_PAIRS = { unpairedWeight: 0.9, minScore: 0.19 } satisfies MatcherOptions;

const result = (names: string[], scores: number[] = []): MatchResult => ({
  candidates: names.map((name, i) => ({ name, score: scores[i] ?? 0, reasons: [] })),
  vetoed: [],
  ambiguous: false,
});

export function winkRouter(
  skills: readonly Skill[],
  text: (s: Skill) => string,
  threshold = Number.NEGATIVE_INFINITY,
): Router {
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
    const hits = engine.search(message, 5).filter(([, score]) => score >= threshold);
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

const allFields = (s: Skill) =>
  [nameWords(s.name), s.description, s.whenToUse ?? "", ...s.examples].join(" . ");

export function routers(set: RoutingSet, tuning: MatcherOptions = {}, bm25Threshold = 0): [string, Router][] {
  const ours = createMatcher(tuning);
  const ranking = createMatcher({ ...tuning, minScore: 0 });
  const previous = createMatcher({ ...tuning, ...BEFORE });
  const lone = createMatcher({ ...tuning, ...LONE_WORDS_WEAK });
  const paired = createMatcher({ ...tuning, ...WORD_PAIRS });
  const baseline = baselineCore?.createMatcher(tuning);
  return [
    ["skillshelf", (m) => ours.match(set.skills, m)],
    ...(baseline
      ? [[`skillshelf, ${BASELINE}`, (m: string) => baseline.match(set.skills, m)] as [string, Router]]
      : []),
    ["skillshelf, ranking only", (m) => ranking.match(set.skills, m)],
    ["skillshelf, lone words weak (0.7, minScore 0.18)", (m) => lone.match(set.skills, m)],
    ["skillshelf, word pairs (0.9, minScore 0.19)", (m) => paired.match(set.skills, m)],
    ["skillshelf, before (no everyday prior, no familiarity)", (m) => previous.match(set.skills, m)],
    ["BM25 (wink), description", winkRouter(set.skills, (s) => s.description)],
    ["BM25 (wink), all fields", winkRouter(set.skills, allFields)],
    [`BM25 (wink), all fields, threshold ${bm25Threshold}`, winkRouter(set.skills, allFields, bm25Threshold)],
    ["exact substring", substringRouter(set.skills, set.substrings)],
  ];
}

export function evaluateSet(
  set: RoutingSet,
  cases: readonly RoutingCase[],
  tuning?: MatcherOptions,
  bm25Threshold?: number,
): MethodResult[] {
  return routers(set, tuning, bm25Threshold).map(([method, route]) => ({
    method,
    report: evaluateRouting(cases, route),
  }));
}

/** Raw BM25 scores tried as wink's none-threshold. */
export const BM25_THRESHOLDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12] as const;

/**
 * BM25's best threshold, chosen on the CLINC150 dev split: the highest at which its recall@3
 * is still at least skillshelf's at the default (so the two are compared at the same recall).
 */
export function bestBm25Threshold(tuning: MatcherOptions = {}): number {
  const set = clinc();
  const matcher = createMatcher(tuning);
  const target = evaluateRouting(set.dev, (m) => matcher.match(set.skills, m)).recallAt3;
  let best = 0;
  for (const threshold of BM25_THRESHOLDS) {
    const route = winkRouter(set.skills, allFields, threshold);
    if (evaluateRouting(set.dev, route).recallAt3 >= target - 1e-9) best = threshold;
  }
  return best;
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
  const bm25Threshold = bestBm25Threshold(options.tuning);
  const rows = [];
  for (const load of [metatool, clinc, dotnet, metatoolWithForeignNegatives]) {
    const set = load();
    const cases = split === "dev" ? set.dev : set.test;
    if (cases.length === 0) continue;
    const results = evaluateSet(set, cases, options.tuning, bm25Threshold);
    const positives = results[0]?.report.positives ?? 0;
    const nones = results[0]?.report.none.cases ?? 0;
    rows.push({ set: `${set.name} ${split}`, cases: cases.length, positives, nones, results });
  }
  return routingTable(rows);
}

/**
 * The none-threshold's trade-off, recall@3 / none-accuracy at several thresholds, for the
 * scorer, a baseline build if given, the options left off (lone words, word pairs), the scorer
 * before (no everyday prior, no familiarity) and BM25 over all fields, in one table.
 */
export function thresholdSweep(split: "dev" | "test", scores: readonly number[]): string {
  const sets = [metatool(), clinc(), dotnet(), metatoolWithForeignNegatives()]
    .map((set) => ({ set, cases: split === "dev" ? set.dev : set.test }))
    .filter(({ cases }) => cases.length > 0);
  const head = sets.map(({ set }) => `${set.name} r@3 / none`).join(" | ");
  const lines = [`| method | threshold | ${head} |`, `|---|---:|${sets.map(() => "---:").join("|")}|`];
  const cell = (r: RoutingReport) => `${pct(r.recallAt3)} / ${r.none.cases > 0 ? pct(r.none.accuracy) : "—"}`;
  const rows: [string, string, (set: RoutingSet) => Router][] = [];
  for (const minScore of scores) {
    const label = `${minScore}${minScore === DEFAULT_TUNING.minScore ? " (default)" : ""}`;
    rows.push([
      "skillshelf",
      label,
      (set) => {
        const matcher = createMatcher({ minScore });
        return (m) => matcher.match(set.skills, m);
      },
    ]);
  }
  if (baselineCore)
    for (const minScore of scores) {
      const label = `${minScore}${minScore === baselineCore.DEFAULT_TUNING.minScore ? " (its default)" : ""}`;
      rows.push([
        BASELINE,
        label,
        (set) => {
          const matcher = baselineCore.createMatcher({ minScore });
          return (m) => matcher.match(set.skills, m);
        },
      ]);
    }
  for (const minScore of scores)
    rows.push([
      "lone words weak (0.7)",
      `${minScore}${minScore === LONE_WORDS_WEAK.minScore ? " (its pick)" : ""}`,
      (set) => {
        const matcher = createMatcher({ ...LONE_WORDS_WEAK, minScore });
        return (m) => matcher.match(set.skills, m);
      },
    ]);
  for (const minScore of scores)
    rows.push([
      "word pairs (0.9)",
      `${minScore}${minScore === WORD_PAIRS.minScore ? " (its pick)" : ""}`,
      (set) => {
        const matcher = createMatcher({ ...WORD_PAIRS, minScore });
        return (m) => matcher.match(set.skills, m);
      },
    ]);
  for (const minScore of scores) {
    const label = `${minScore}${minScore === BEFORE.minScore ? " (its default)" : ""}`;
    rows.push([
      "before (no everyday prior, no familiarity)",
      label,
      (set) => {
        const matcher = createMatcher({ ...BEFORE, minScore });
        return (m) => matcher.match(set.skills, m);
      },
    ]);
  }
  for (const threshold of BM25_THRESHOLDS)
    rows.push([
      "BM25 (wink), all fields",
      String(threshold),
      (set) => winkRouter(set.skills, allFields, threshold),
    ]);
  for (const [method, label, router] of rows) {
    const cells = sets.map(({ set, cases }) => cell(evaluateRouting(cases, router(set))));
    lines.push(`| ${method} | ${label} | ${cells.join(" | ")} |`);
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
  console.log(`\nThe none-threshold's trade-off (${dev ? "dev" : "test"} split):\n`);
  console.log(
    thresholdSweep(dev ? "dev" : "test", [0, 0.1, 0.15, 0.18, 0.19, 0.2, 0.21, 0.22, 0.25, 0.3, 0.35, 0.4]),
  );
}
