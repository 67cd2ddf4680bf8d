/**
 * Per-call overhead: what the skillshelf adapter, with its default settings, adds to each
 * model call over the bare framework, on the same mock model (each framework's own mock
 * class) and the same host tools: LangChain `createAgent`, the AI SDK (`generateText` and
 * `streamText` with a route's `messages`), Mastra `Agent.generate`.
 *
 * Each framework and shelf size runs in a new process (per-call-run.ts) that times the bare
 * agent and the adapted one turn by turn, alternating, on new real requests: one model call,
 * a tool loop of four, and a turn with an activation. Sizes: the copied corpus at 1,000
 * skills and the real mirror (≈ 8,200 skills from 15,725 files, a real vocabulary).
 * `pnpm bench per-call [--turns=N]`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSkillTree, MIRROR_DIR, mirrorMessagesFile } from "./corpus.ts";
import { messages as corpusMessages } from "./plan.bench.ts";

const FRAMEWORKS = ["langchain", "ai-sdk", "ai-sdk-stream", "mastra"] as const;
const LABELS: Record<(typeof FRAMEWORKS)[number], string> = {
  langchain: "LangChain `createAgent`",
  "ai-sdk": "AI SDK `generateText`",
  "ai-sdk-stream": "AI SDK `streamText`",
  mastra: "Mastra `Agent.generate`",
};

interface Summary {
  p50: number;
  p95: number;
}

interface ScenarioResult {
  scenario: string;
  modelCalls: number;
  requests: number;
  turns: number;
  bare: Summary;
  skills: Summary;
  difference: Summary;
  cpu: { bare: Summary; skills: Summary };
}

interface RunResult {
  framework: string;
  skills: number;
  loadMs: number;
  activated: number;
  results: ScenarioResult[];
}

const turnsArg = process.argv.find((a) => a.startsWith("--turns="));
const turns = turnsArg ? Number(turnsArg.slice("--turns=".length)) : 300;

function runOne(framework: string, dir: string, messagesFile: string): RunResult {
  const script = fileURLToPath(new URL("./per-call-run.ts", import.meta.url));
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, script, framework, dir, messagesFile, String(turns)],
    { encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "ignore"] },
  );
  return JSON.parse(out.trim().split("\n").pop() as string) as RunResult;
}

const ms = (value: number) => (value < 0.1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`);
const signed = (value: number) => `${value >= 0 ? "+" : "−"}${ms(Math.abs(value))}`;
const loadAverage = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

export async function run(): Promise<void> {
  const corpusFile = path.join(os.tmpdir(), "skillshelf-bench-corpus-messages.json");
  fs.writeFileSync(corpusFile, JSON.stringify(corpusMessages()));
  const sets: Array<[label: string, dir: string, messages: string]> = [
    ["copied corpus · 1,000 files", buildSkillTree(1_000), corpusFile],
    ["mirror · 15,725 files", MIRROR_DIR, mirrorMessagesFile()],
  ];
  console.log(
    `${turns} measured turns per scenario after ${Math.max(20, Math.floor(turns / 5))} warm-up turns, bare and adapted alternating, in one new process per framework and set. ` +
      "A turn's wall time, p50 / p95; overhead = p50 of the paired differences (adapted − bare), per model call = that ÷ the turn's model calls; CPU = process CPU time of the turn (all threads), p50.\n",
  );
  for (const [label, dir, messagesFile] of sets) {
    const before = loadAverage();
    const rows: string[] = [];
    let skills = 0;
    for (const framework of FRAMEWORKS) {
      const result = runOne(framework, dir, messagesFile);
      skills = result.skills;
      for (const r of result.results) {
        const calls = `${r.modelCalls}${r.scenario === "activation" ? ` (${result.activated} activations)` : ""}`;
        rows.push(
          `| ${LABELS[framework]} | ${r.scenario} | ${calls} | ${ms(r.bare.p50)} / ${ms(r.bare.p95)} | ${ms(r.skills.p50)} / ${ms(r.skills.p95)} | ${signed(r.difference.p50)} | **${signed(r.difference.p50 / r.modelCalls)}** | ${ms(r.cpu.bare.p50)} → ${ms(r.cpu.skills.p50)} |`,
        );
      }
    }
    console.log(`### ${label} (${skills.toLocaleString("en-US")} skills served)\n`);
    console.log(`Load average before: ${before}; after: ${loadAverage()}.\n`);
    console.log(
      "| framework | turn | model calls | bare p50 / p95 | with skillshelf p50 / p95 | overhead per turn | per model call | CPU bare → with |",
    );
    console.log("|---|---|---:|---:|---:|---:|---:|---:|");
    for (const row of rows) console.log(row);
    console.log("");
  }
}
