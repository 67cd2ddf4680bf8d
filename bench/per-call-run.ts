// One framework at one shelf size, in a new process, for per-call.bench.ts: the bare agent and
// the agent with the skillshelf adapter (default settings) run the same turns on the same mock
// model and host tools, alternating turn by turn (so load drifts hit both alike), and the
// process prints one JSON line: per scenario the p50/p95 of a turn's wall time for each, and
// the median of the paired differences.
// Scenarios: "one call" (the model answers text: one model call per turn); "tool loop" (three
// host tool calls, then text: four model calls); "activation" (the model calls the skill tool
// the plan offers, then answers under the skill; bare: a host tool call, then text). Every
// turn is a new real request (rotating through the list), so nothing is served from a
// per-message cache across turns.
// Usage: per-call-run.ts <langchain|ai-sdk|ai-sdk-stream|mastra> <skills dir> <messages.json> [turns] [scenario,…]
// (PER_CALL_SETTLE=1: see `settle` below.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import { type CreateHarness, conversationFor, HOST_TOOL_NAMES, type Step } from "./per-call-script.ts";

const [framework, dir, messagesFile, turnsArg, only] = process.argv.slice(2);
if (!framework || !dir || !messagesFile) {
  throw new Error("usage: per-call-run.ts <framework> <skills dir> <messages.json> [turns]");
}
const turns = Number(turnsArg ?? 300);
const warmup = Math.max(20, Math.floor(turns / 5));
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];

async function harnessModule(name: string): Promise<CreateHarness> {
  if (name === "langchain") return (await import("./per-call-langchain.ts")).createHarness;
  if (name === "ai-sdk") return (await import("./per-call-ai-sdk.ts")).harnessFor("generate");
  if (name === "ai-sdk-stream") return (await import("./per-call-ai-sdk.ts")).harnessFor("stream");
  if (name === "mastra") return (await import("./per-call-mastra.ts")).createHarness;
  throw new Error(`unknown framework ${name}`);
}
const createHarness = await harnessModule(framework);

const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-per-call-"));
const loadStart = performance.now();
// Defaults, except where the skills are: no user folders, so the machine's own skills stay out.
const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [] });
const loadMs = performance.now() - loadStart;
const bare = await createHarness(undefined);
const withSkills = await createHarness(shelf);

// For the activation turn: the skill tool the plan offers for each request that gets one. A
// `context: fork` skill runs a sub-agent (more model calls) instead of loading: not this turn.
const activations: Array<{ message: string; tool: string }> = [];
for (const message of messages) {
  const offered = shelf.session({ message, tools: HOST_TOOL_NAMES }).plan().tools;
  const skillTool = offered.find((t) => {
    const skill = t.name.startsWith("skill_") ? shelf.get(t.name.slice("skill_".length)) : undefined;
    return skill !== undefined && skill.context !== "fork";
  });
  if (skillTool) activations.push({ message, tool: skillTool.name });
}

const hostCall = (name: string, input: Record<string, unknown>): Step => ({ calls: [{ name, input }] });
const done: Step = { text: "Done." };

interface Scenario {
  name: string;
  modelCalls: number;
  requests: number;
  /** The scripts of turn `i`: bare and with skills, and the request. */
  at(i: number): { message: string; bare: Step[]; skills: Step[] };
}

const scenarios: Scenario[] = [
  {
    name: "one call",
    modelCalls: 1,
    requests: messages.length,
    at: (i) => ({ message: messages[i % messages.length]!, bare: [done], skills: [done] }),
  },
  {
    name: "tool loop",
    modelCalls: 4,
    requests: messages.length,
    at: (i) => {
      const script = [
        hostCall("read_file", { path: "README.md" }),
        hostCall("grep", { pattern: "TODO", path: "src" }),
        hostCall("read_file", { path: "src/index.ts" }),
        done,
      ];
      return { message: messages[i % messages.length]!, bare: script, skills: script };
    },
  },
  {
    name: "activation",
    modelCalls: 2,
    requests: activations.length,
    at: (i) => {
      const { message, tool } = activations[i % activations.length]!;
      return {
        message,
        bare: [hostCall("read_file", { path: "README.md" }), done],
        skills: [hostCall(tool, {}), done],
      };
    },
  },
];

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

/** Wall ms of one turn, and its process CPU ms (all threads): CPU moves less with the machine's load. */
async function timed(run: () => Promise<void>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

// PER_CALL_SETTLE=1: the event loop turns twice before every timed turn, outside the timing.
// Without it the turns follow each other in one promise chain that never yields to the event
// loop, so whatever the process has pending (V8's GC tasks, timers, I/O callbacks) runs in the
// first turn that yields and is timed with it: the adapters' `refresh()` waits two event-loop
// turns for its watcher, a bare agent's turn never does. A server's requests arrive through
// the event loop, which has turned between them.
const settle = process.env.PER_CALL_SETTLE === "1";
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const settled = async () => {
  await nextTurn();
  await nextTurn();
};

const results = [];
for (const scenario of scenarios) {
  if (only && !only.split(",").includes(scenario.name)) continue;
  const bareSamples: number[] = [];
  const skillSamples: number[] = [];
  const differences: number[] = [];
  const bareCpu: number[] = [];
  const skillCpu: number[] = [];
  for (let i = 0; i < warmup + turns; i++) {
    const { message, bare: bareScript, skills: skillScript } = scenario.at(i);
    const conversation = conversationFor(message);
    if (settle) await settled();
    const runBare = () => bare.turn(conversation, bareScript);
    const runSkills = () => withSkills.turn(conversation, skillScript);
    // Alternate which goes first, so neither always runs right after the other's garbage.
    let b: { ms: number; cpuMs: number };
    let s: { ms: number; cpuMs: number };
    if (i % 2 === 0) {
      b = await timed(runBare);
      if (settle) await settled();
      s = await timed(runSkills);
    } else {
      s = await timed(runSkills);
      if (settle) await settled();
      b = await timed(runBare);
    }
    if (i < warmup) continue;
    bareSamples.push(b.ms);
    skillSamples.push(s.ms);
    differences.push(s.ms - b.ms);
    bareCpu.push(b.cpuMs);
    skillCpu.push(s.cpuMs);
  }
  results.push({
    scenario: scenario.name,
    modelCalls: scenario.modelCalls,
    requests: scenario.requests,
    turns,
    bare: summary(bareSamples),
    skills: summary(skillSamples),
    difference: summary(differences),
    cpu: { bare: summary(bareCpu), skills: summary(skillCpu) },
  });
}

// Counted after close(), which flushes the event log: proof the activation turns activated.
await shelf.close();
const eventsFile = path.join(root, ".skillshelf", "events.jsonl");
const activated = fs.existsSync(eventsFile)
  ? fs
      .readFileSync(eventsFile, "utf8")
      .split("\n")
      .filter((line) => line.includes('"type":"activated"')).length
  : 0;
console.log(JSON.stringify({ framework, skills: shelf.skills().length, loadMs, activated, settle, results }));
fs.rmSync(root, { recursive: true, force: true });
