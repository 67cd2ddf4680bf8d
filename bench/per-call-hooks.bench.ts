/**
 * Where the per-call overhead goes, one part at a time, on the per-call benchmark's agents
 * (same mock model, host tools and route-like conversation) and its "one call" turn: the
 * framework's cost of each hook kind skillshelf uses, with the hook doing nothing (all these
 * agents in one process, taking turns, the order reversed every round: median CPU time of a
 * turn minus the bare agent's, wall beside it); then, on its own, core's work for a new
 * request outside any framework (refresh, open the session, plan). The adapters' totals are
 * per-call.bench.ts's: a shelf's background work (the event log, the usage file) would land
 * in the other agents' turns here. `pnpm bench per-call-hooks [--turns=N]` (copied corpus,
 * 1,000 files).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProcessInputStepArgs, ProcessInputStepResult } from "@mastra/core/processors";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { skillsMiddleware } from "@skillshelf/langchain";
import { createMiddleware } from "langchain";
import { buildSkillTree } from "./corpus.ts";
import { median } from "./lib.ts";
import { harnessWith as langchainWith } from "./per-call-langchain.ts";
import { harnessWith as mastraWith } from "./per-call-mastra.ts";
import { conversationFor, type Harness, HOST_TOOL_NAMES } from "./per-call-script.ts";
import { messages as corpusMessages } from "./plan.bench.ts";

const turnsArg = process.argv.find((a) => a.startsWith("--turns="));
const turns = turnsArg ? Number(turnsArg.slice("--turns=".length)) : 1_000;
const warmup = Math.max(50, Math.floor(turns / 4));

interface Variant {
  framework: string;
  name: string;
  turn: (message: string) => Promise<void>;
}

const pass = <T>(request: T, handler: (r: T) => unknown) => handler(request);

function agentVariant(framework: string, name: string, harness: Harness): Variant {
  return { framework, name, turn: (message) => harness.turn(conversationFor(message), [{ text: "Done." }]) };
}

/** Core's work for a new request: what every adapter asks of the shelf first. */
async function newRequest(shelf: Shelf, message: string): Promise<void> {
  await shelf.refresh();
  const history = conversationFor(message)
    .filter((m) => m.role === "user")
    .map((m) => ({ kind: "user" as const, text: m.text }));
  (await shelf.openSession({ history, tools: HOST_TOOL_NAMES })).plan();
}

/** Core's work for a new request on its own. */
function coreVariant(shelf: Shelf): Variant {
  return {
    framework: "core",
    name: "`refresh()` + `openSession()` + `plan()` of a new request",
    turn: (message) => newRequest(shelf, message),
  };
}

/**
 * The same core work right before a bare Mastra turn, no processor: what core's part costs
 * between the framework's turns (its data no longer in the caches), against the row above.
 */
function coreBeforeMastraVariant(shelf: Shelf): Variant {
  const bare = mastraWith([]);
  return {
    framework: "Mastra",
    name: "bare `Agent`, core's new-request work before each turn (no processor)",
    async turn(message) {
      await newRequest(shelf, message);
      await bare.turn(conversationFor(message), [{ text: "Done." }]);
    },
  };
}

/**
 * What Mastra does with each thing skillshelf's processor returns from `processInputStep`, the
 * processor itself doing no work: the step's tools with four tools more (as Mastra tools, which
 * Mastra converts again on every step, or as plain tool objects, which it does not), a tagged
 * system message of a catalog's size, and the model behind a Proxy (as core's `respondingModel`).
 */
function mastraReturnVariants(): Variant[] {
  const schema = {
    type: "object",
    properties: { name: { type: "string", enum: Array.from({ length: 100 }, (_, i) => `skill-${i}`) } },
  };
  const standard = {
    "~standard": {
      version: 1,
      vendor: "bench",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
  const execute = async () => "ok";
  const names = ["skill_a", "skill_b", "skill_c", "activate_skill"];
  const mastraTools = names.map((id) => [
    id,
    // biome-ignore lint/suspicious/noExplicitAny: a Standard Schema over a plain JSON Schema, as the adapter's.
    createTool({ id, description: `The ${id} tool.`, inputSchema: standard as any, execute }),
  ]);
  const plainTools = names.map((id) => [
    id,
    { type: "function", id, description: `The ${id} tool.`, inputSchema: standard, execute },
  ]);
  // Methods run on the real object (the model class has private fields), as in `respondingModel`.
  const bound: ProxyHandler<object> = {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  };
  const catalog = "- a-skill: what it does and when to use it.\n".repeat(400);
  const returning = (name: string, step: (args: ProcessInputStepArgs) => ProcessInputStepResult) =>
    agentVariant("Mastra", name, mastraWith([{ id: "x", processInputStep: async (args) => step(args) }]));
  return [
    returning("+ returning the step's tools and four Mastra tools (`createTool`) more", (args) => ({
      tools: { ...args.tools, ...Object.fromEntries(mastraTools) },
    })),
    returning("+ returning the step's tools and the same four as plain tool objects", (args) => ({
      tools: { ...args.tools, ...Object.fromEntries(plainTools) },
    })),
    returning("+ a tagged system message of 18 KB (`clearSystemMessages` + `addSystem`)", (args) => {
      args.messageList.clearSystemMessages("x");
      args.messageList.addSystem(catalog, "x");
      return {};
    }),
    returning("+ returning the model behind a Proxy", (args) => ({ model: new Proxy(args.model, bound) })),
  ];
}

export async function run(): Promise<void> {
  const dir = buildSkillTree(1_000);
  const requests = corpusMessages();
  // One shelf per variant that uses one: a shelf caches stage 1 per message.
  const roots: string[] = [];
  const shelf = async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-hooks-"));
    roots.push(root);
    return createShelf({ root, projectDirs: [dir], userDirs: [] });
  };
  const shelves: Shelf[] = [];
  const own = async () => {
    const s = await shelf();
    shelves.push(s);
    return s;
  };

  // The middleware's own state schema, as createAgent receives it (the middleware never runs).
  const { stateSchema } = skillsMiddleware({ shelf: await own() });
  const variants: Variant[] = [
    agentVariant("LangChain", "bare `createAgent`", langchainWith([])),
    agentVariant(
      "LangChain",
      "+ `wrapModelCall` (passes the request on)",
      langchainWith([createMiddleware({ name: "x", wrapModelCall: pass })]),
    ),
    agentVariant(
      "LangChain",
      "+ `wrapModelCall` and skillshelf's `stateSchema`",
      langchainWith([createMiddleware({ name: "x", stateSchema, wrapModelCall: pass })]),
    ),
    agentVariant(
      "LangChain",
      "+ `wrapModelCall`, `stateSchema` and an empty `afterModel`",
      langchainWith([
        createMiddleware({ name: "x", stateSchema, wrapModelCall: pass, afterModel: () => undefined }),
      ]),
    ),
    agentVariant("Mastra", "bare `Agent`", mastraWith([])),
    agentVariant(
      "Mastra",
      "+ an input processor whose `processInputStep` does nothing",
      mastraWith([{ id: "x", processInputStep: async () => undefined }]),
    ),
    ...mastraReturnVariants(),
    coreBeforeMastraVariant(await own()),
  ];

  const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const loadBefore = load();
  const cpu = variants.map(() => [] as number[]);
  const wall = variants.map(() => [] as number[]);
  for (let i = 0; i < warmup + turns; i++) {
    const message = requests[i % requests.length]!;
    const order = variants.map((_, at) => at);
    if (i % 2) order.reverse();
    for (const at of order) {
      const start = process.cpuUsage();
      const began = performance.now();
      await variants[at]!.turn(message);
      const ms = performance.now() - began;
      const used = process.cpuUsage(start);
      if (i < warmup) continue;
      cpu[at]!.push((used.user + used.system) / 1000);
      wall[at]!.push(ms);
    }
  }

  // Core on its own, after the agents: its shelf's background work cannot reach them.
  const core = coreVariant(await own());
  const coreCpu: number[] = [];
  const coreWall: number[] = [];
  for (let i = 0; i < warmup + turns; i++) {
    const start = process.cpuUsage();
    const began = performance.now();
    await core.turn(requests[i % requests.length]!);
    const ms = performance.now() - began;
    const used = process.cpuUsage(start);
    if (i < warmup) continue;
    coreCpu.push((used.user + used.system) / 1000);
    coreWall.push(ms);
  }
  for (const s of shelves) await s.close();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });

  console.log(
    `${turns} "one call" turns per variant after ${warmup} warm-up turns, all variants in one process, taking turns. Load average before: ${loadBefore}; after: ${load()}.\n`,
  );
  console.log("| framework | variant | CPU per turn p50 | over bare | wall p50 |\n|---|---|---:|---:|---:|");
  const bare = new Map<string, number>();
  variants.forEach((v, at) => {
    const p50 = median(cpu[at]!);
    if (!bare.has(v.framework)) bare.set(v.framework, p50);
    const difference = p50 - bare.get(v.framework)!;
    const over = `${difference >= 0 ? "+" : "−"}${Math.abs(difference).toFixed(2)} ms`;
    console.log(
      `| ${v.framework} | ${v.name} | ${p50.toFixed(2)} ms | ${over} | ${median(wall[at]!).toFixed(2)} ms |`,
    );
  });
  console.log(
    `| core | ${core.name} | ${median(coreCpu).toFixed(2)} ms | | ${median(coreWall).toFixed(2)} ms |`,
  );
}
