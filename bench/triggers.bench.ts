/**
 * Stage 1 on hostile input: what one `/regex/` trigger costs on one message at the input cap
 * (1,000 characters), for the hostile patterns of the attack run, the worst shapes the
 * program-size cap still accepts, and ordinary patterns; the old engine (JavaScript's
 * backtracking RegExp, which the old heuristics let these patterns through to) beside them,
 * on inputs short enough to terminate; what compiling one costs at load. Then `match()` on a message holding one 10,000-letter
 * token, and the stemmer alone on that token (what each plan paid before long tokens were
 * left unstemmed).
 *
 * Budget: any trigger on any message ≤ 1 ms at the input cap. Each row is timed call by call
 * over rotating inputs after a warm-up. The median is the cost (each call does the same work);
 * the 99th percentile and the slowest call add what the machine's load and the GC add.
 */
import { createRequire } from "node:module";
import { type CompiledTrigger, compileTrigger, createMatcher } from "@skillshelf/core";
import { formatMs } from "./lib.ts";
import { benchSkill } from "./routing-data.ts";

const CAP = 1_000;

interface Timing {
  p50: number;
  p99: number;
  max: number;
  calls: number;
}

/** Times `fn` call by call over the inputs in turn, after a warm-up. */
function time<T>(inputs: readonly T[], fn: (input: T) => unknown, calls = 400, warmup = 50): Timing {
  for (let i = 0; i < warmup; i++) fn(inputs[i % inputs.length] as T);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const input = inputs[i % inputs.length] as T;
    const start = performance.now();
    fn(input);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p99: at(0.99), max: samples.at(-1) as number, calls };
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** `count` different strings of `length` characters drawn from `alphabet`. */
function strings(alphabet: string, length: number, count = 20, seed = 7): string[] {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    let s = "";
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  });
}

const repeated = (unit: string, length = CAP) => [
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length),
];

function compiled(source: string): CompiledTrigger {
  const result = compileTrigger(source);
  if (!result.ok) throw new Error(`${source}: ${result.error}`);
  return result.trigger;
}

const asInput = (text: string) => ({ canonical: text, normalized: text, keys: new Set<string>() });

/** The largest k for which `make(k)` is still accepted. */
function largestAccepted(make: (k: number) => string): string {
  let k = 1;
  while (compileTrigger(make(k + 1)).ok) k++;
  return make(k);
}

interface Row {
  pattern: string;
  input: string;
  inputs: string[];
}

const HOSTILE: Row[] = [
  { pattern: "/(a+?)+?b/", input: "a × 1,000", inputs: repeated("a") },
  { pattern: "/(.+?)+?#/", input: "random text", inputs: strings("abc de", CAP) },
  { pattern: "/(\\S+?)*?\\x00/", input: "random text", inputs: strings("abc de", CAP) },
  { pattern: "/(?:[a-z0-9]+?)+?@/", input: "a1 × 500", inputs: repeated("a1") },
  { pattern: "/(a+)+$/", input: "a × 999 + !", inputs: [`${"a".repeat(CAP - 1)}!`] },
  { pattern: "/(a|aa)+$/", input: "a × 999 + !", inputs: [`${"a".repeat(CAP - 1)}!`] },
  { pattern: "/.*a.*b.*c/", input: "random a/b", inputs: strings("ab ", CAP) },
];

const AT_THE_CAP: Row[] = [
  { pattern: largestAccepted((k) => `/a{1,${k}}a{1,${k}}b/`), input: "a × 1,000", inputs: repeated("a") },
  { pattern: largestAccepted((k) => `/(?:a?){${k}}a{${k}}$/`), input: "a × 1,000", inputs: repeated("a") },
  { pattern: largestAccepted((k) => `/(.*){1,${k}}x/`), input: "random text", inputs: strings("abc ", CAP) },
  { pattern: largestAccepted((k) => `/((a?)){${k}}(a){${k}}$/`), input: "a × 1,000", inputs: repeated("a") },
  {
    pattern: largestAccepted((k) => `/(?:\\w|\\S|.){1,${k}}#/`),
    input: "random text",
    inputs: strings("ab1 ", CAP),
  },
  { pattern: largestAccepted((k) => `/[ab]*a[ab]{${k}}c/`), input: "random a/b", inputs: strings("ab", CAP) },
];

const WORDS = "deploy ship release to on prod production the a v2.3 jira-1234 bob@example.org 写 一篇 文章 ";
const ORDINARY: Row[] = [
  "/deploy (to|on) prod/",
  "/v\\d+\\.\\d+/",
  "/\\b(?:pdf|docx?|xlsx?)\\b/",
  "/jira-\\d{1,6}/",
  "/[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}/",
  "/(?:写|生成).{0,10}文章/",
].map((pattern) => ({ pattern, input: "random words", inputs: wordMessages(CAP) }));

function wordMessages(length: number): string[] {
  const words = WORDS.trim().split(" ");
  const next = seeded(11);
  return Array.from({ length: 20 }, () => {
    let s = "";
    while (s.length < length) s += `${words[Math.floor(next() * words.length)]} `;
    return s.slice(0, length);
  });
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

const code = (text: string) => `\`${text.replaceAll("|", "\\|")}\``;

function triggerTable(rows: readonly Row[]): string {
  const lines = [
    "| trigger | steps | input (1,000 chars) | median | p99 | slowest | median ≤ 1 ms |",
    "|---|---:|---|---:|---:|---:|---|",
  ];
  for (const r of rows) {
    const trigger = compiled(r.pattern);
    const inputs = r.inputs.map(asInput);
    const t = time(inputs, (input) => trigger.test(input));
    lines.push(
      row([
        code(r.pattern),
        String(trigger.programSize),
        r.input,
        formatMs(t.p50),
        formatMs(t.p99),
        formatMs(t.max),
        t.p50 <= 1 ? "yes" : "**no**",
      ]),
    );
  }
  return lines.join("\n");
}

/** JavaScript's RegExp on the first `length` characters: the engine the old check let these run on. */
function baselineTable(): string {
  const cases: { pattern: string; input: (n: number) => string; lengths: number[]; calls: number }[] = [
    { pattern: "(a+?)+?b", input: (n) => "a".repeat(n), lengths: [16, 20, 22], calls: 5 },
    { pattern: "(.+?)+?#", input: (n) => "x".repeat(n), lengths: [16, 20, 22], calls: 5 },
    { pattern: "(?:[a-z0-9]+?)+?@", input: (n) => "a".repeat(n), lengths: [16, 20, 22], calls: 5 },
    { pattern: "a{1,999}a{1,999}b", input: (n) => "a".repeat(n), lengths: [250, 1_000], calls: 3 },
  ];
  const lines = ["| trigger (old engine) | input | median | slowest |", "|---|---|---:|---:|"];
  for (const c of cases) {
    const regex = new RegExp(c.pattern, "i");
    for (const n of c.lengths) {
      const t = time([c.input(n)], (s) => regex.exec(s), c.calls, 1);
      lines.push(row([code(`/${c.pattern}/`), `${n} chars`, formatMs(t.p50), formatMs(t.max)]));
    }
  }
  return lines.join("\n");
}

/** Compiling happens at load and on every hot reload, once per trigger; a skill file can hold hundreds. */
function compileTable(): string {
  const cases = [
    ["ordinary", "/deploy (to|on) prod/"],
    ["largest accepted", AT_THE_CAP[0]?.pattern as string],
    ["refused: polynomial", "/a{1,999}a{1,999}b/"],
    ["refused: look-behind", "/(?<=to )prod/"],
  ] as const;
  const lines = ["| pattern | | median | slowest |", "|---|---|---:|---:|"];
  for (const [label, pattern] of cases) {
    const t = time([pattern], (p) => compileTrigger(p), 200, 20);
    lines.push(row([code(pattern), label, formatMs(t.p50), formatMs(t.max)]));
  }
  return lines.join("\n");
}

function hugeTokenTable(): string {
  const token = `${"deploy".repeat(1_700)}ing`;
  const skills = [
    benchSkill({
      name: "deploy-prod",
      description: "Deploy the application to production.",
      triggers: ["deploy to prod"],
    }),
    benchSkill({ name: "pdf-tools", description: "Extract text and tables from PDF files." }),
    benchSkill({
      name: "hostile",
      description: "Lazy regex triggers.",
      triggers: HOSTILE.map((r) => r.pattern),
    }),
  ];
  const matcher = createMatcher();
  const messages = Array.from({ length: 8 }, (_, i) => `please deploy ${i} ${token}${"x".repeat(i)} now`);
  const match = time(messages, (m) => matcher.match(skills, m), 40, 4);
  // The stemmer (core's until it moved to `porter2`) as every plan ran it on such a token
  // before (each message a new token: no cache).
  const stemmer = createRequire(import.meta.url)("wink-porter2-stemmer") as (word: string) => string;
  const stem = time(messages, (m) => stemmer(m.split(" ")[3] as string), 4, 1);
  return [
    `Message: "please deploy <n> <one ${token.length.toLocaleString("en")}-letter token> now", a new token each call.`,
    "",
    "| task | median | slowest |",
    "|---|---:|---:|",
    row([
      "`match()`, 3 skills (one with the hostile triggers above)",
      formatMs(match.p50),
      formatMs(match.max),
    ]),
    row([
      "Porter2 stem of the token (old cost per plan, before the 64-letter cap)",
      formatMs(stem.p50),
      formatMs(stem.max),
    ]),
  ].join("\n");
}

export async function run(): Promise<void> {
  console.log("### One trigger on one message at the input cap (RE2)\n");
  console.log("Hostile patterns from the attack run (all run on RE2 now):\n");
  console.log(triggerTable(HOSTILE));
  console.log("\nThe worst shapes the program-size cap still accepts (bounded repeats at their largest):\n");
  console.log(triggerTable(AT_THE_CAP));
  console.log("\nOrdinary patterns on word-like messages:\n");
  console.log(triggerTable(ORDINARY));
  console.log("\n### Compiling a trigger (at load)\n");
  console.log(compileTable());
  console.log("\n### The old engine (JavaScript RegExp, backtracking) on short inputs\n");
  console.log(baselineTable());
  console.log("\n### A 10,000-letter token\n");
  console.log(hugeTokenTable());
}
