/**
 * Sessions and plan(): the per-model-call cost a host pays, at 1,000 and 10,000 real
 * skills (corpus.ts). Each "new message" call plans a different real user request (MetaTool
 * Task1 queries, and requests written from corpus skill descriptions so stage 1 has real
 * candidates), so nothing is served from the shelf's per-message cache: stage-1 matching,
 * the budgeted catalog, activation tool specs and the tool policy are all computed.
 *
 * Also measured: a replan of the same message (the next step of a tool loop), plan() with two
 * active skills that restrict tools, plan() with the default JSONL event log on, and guard().
 * A host opens one session per model call: a stateless host (the AI SDK, the reference
 * driver) from the conversation, a host with a checkpoint (LangChain, Mastra) from its state.
 * Both are measured on a step inside an already planned turn (tool calls follow the user
 * message, so it is replayed silently), and a new message opened on a checkpoint; and a whole
 * model call as an adapter makes it: open, plan, respond with the model's calls, guard each.
 * match() and buildCatalog() alone are shown for reference: plan() is mostly those two.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  buildCatalog,
  createMatcher,
  createShelf,
  type HistoryItem,
  type Session,
  type Shelf,
  type ShelfOptions,
  type ToolCall,
} from "@skillshelf/core";
import { createSession } from "@skillshelf/core/adapter";
import { buildSkillTree, corpusFiles, DATA_DIR } from "./corpus.ts";
import { formatMs, type Measured, measure } from "./lib.ts";

const ROUTING_DIR = path.join(DATA_DIR, "routing");

const HOST_TOOLS = [
  "read_file",
  "write_file",
  "edit_file",
  "ls",
  "glob",
  "grep",
  "execute",
  "web_search",
  "fetch_url",
];

export function messages(): string[] {
  const task1 = JSON.parse(
    fs.readFileSync(path.join(ROUTING_DIR, "metatool", "Task1.json"), "utf8"),
  ) as Array<{
    query: string;
  }>;
  const fromSkills = corpusFiles()
    .slice(0, 200)
    .map((f) => /\ndescription:\s*["']?(.+)/.exec(f.text)?.[1] ?? "")
    .filter((d) => d.length > 20)
    .map((d) => `Please help me: ${d.split(/\s+/).slice(0, 12).join(" ")}`);
  const queries = task1.slice(0, 200).map((t) => t.query);
  // Interleave so consecutive calls alternate hits and misses.
  const out: string[] = [];
  for (let i = 0; i < Math.max(queries.length, fromSkills.length); i++) {
    if (queries[i]) out.push(queries[i]!);
    if (fromSkills[i]) out.push(fromSkills[i]!);
  }
  return out;
}

async function shelfOf(
  count: number,
  extra: Partial<ShelfOptions> = {},
): Promise<{ shelf: Shelf; stateDir: string }> {
  const dir = buildSkillTree(count);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-plan-state-"));
  const shelf = await createShelf({
    root: path.dirname(dir),
    projectDirs: [dir],
    userDirs: [],
    stateDir,
    events: false,
    ...extra,
  });
  return { shelf, stateDir };
}

/** A long-lived session planning a new message on every call. */
function rotating(session: Session, list: readonly string[]) {
  let i = 0;
  return () => session.plan({ message: list[i++ % list.length]! });
}

async function suite(count: number, list: readonly string[]): Promise<Measured[]> {
  const { shelf, stateDir } = await shelfOf(count);
  const withLog = await shelfOf(count, { events: undefined }); // the default: a JSONL event log
  // Skills activated by code and then asked about other requests: under the default "task"
  // scope the first unrelated message would end them, so this shelf keeps them for the session.
  const lasting = await shelfOf(count, { scope: "session" });
  const skills = shelf.skills().filter((s) => !s.role && !s.disableModelInvocation);

  // Split the messages by whether stage 1 finds a candidate: a turn without one reuses the
  // shelf's cached catalog; a new candidate set builds a new catalog.
  const matcher = createMatcher();
  const hits = list.filter((m) => matcher.match(skills, m).candidates.length > 0);
  const misses = list.filter((m) => matcher.match(skills, m).candidates.length === 0);

  const same = shelf.session({ message: list[0]!, tools: HOST_TOOLS });
  same.plan();

  // Two active skills with whitelists: the policy is an intersection over both.
  const withTools = skills.filter((s) => s.allowedTools && s.allowedTools.length > 0).slice(0, 2);
  const restricted = lasting.shelf.session({ tools: HOST_TOOLS });
  for (const s of withTools) restricted.activate(s.name, { by: "code" });
  const guarded = shelf.session({ tools: HOST_TOOLS });
  for (const s of withTools) guarded.activate(s.name, { by: "code" });
  guarded.plan();

  // A step inside an already planned turn: the conversation so far (a "/name" refused earlier,
  // the current request, one skill activated through its skill_<name> tool and one through
  // activate_skill, host tool calls). Tool calls follow the request, so opening replays it
  // silently. The activation outputs are the real results a host records and sends back.
  const request = hits[0]!;
  const first = shelf.session({ message: request, tools: HOST_TOOLS });
  const activations: ToolCall[] = [
    { id: "a1", name: first.plan().tools[0]!.name, input: {} },
    ...(withTools[0] ? [{ id: "a2", name: "activate_skill", input: { name: withTools[0].name } }] : []),
  ];
  first.respond(activations);
  const history: HistoryItem[] = [
    { kind: "user", text: "/no-such-skill hello" },
    { kind: "tool-call", id: "t1", toolName: "read_file", input: { path: "README.md" }, output: "…" },
    { kind: "user", text: request },
    ...activations.map(
      (call): HistoryItem => ({
        kind: "tool-call",
        id: call.id,
        toolName: call.name,
        input: call.input,
        output: first.callSkillTool(call),
      }),
    ),
    { kind: "tool-call", id: "t2", toolName: "read_file", input: { path: "a.md" }, output: "…" },
    { kind: "tool-call", id: "t3", toolName: "grep", input: { pattern: "x" }, output: "…" },
  ];
  const checkpoint = shelf.session({ history, tools: HOST_TOOLS }).toJSON();
  const fresh = shelf.session({ tools: HOST_TOOLS }).toJSON();
  // The model's next response in that step: two host tool calls.
  const calls: ToolCall[] = [
    { id: "c1", name: "read_file", input: { path: "notes/2026.md" } },
    { id: "c2", name: "grep", input: { pattern: "TODO", path: "src" } },
  ];
  const modelCall = (session: Session) => {
    session.plan();
    session.respond(calls);
    for (const call of calls) {
      if (session.isSkillTool(call.name)) session.callSkillTool(call);
      else session.guard(call);
    }
  };

  // The session's own work (explicit /name, match, tool specs, policy, system text) without the catalog.
  const bare = createSession({
    skills: shelf,
    match: (all, message) => matcher.match(all, message),
    tools: HOST_TOOLS,
  });

  let m = 0;
  let c = 0;
  let n = 0;
  const label = count.toLocaleString("en-US");
  const rows = await measure(
    [
      [
        `plan() · ${label} skills · new message each call (${hits.length} hit / ${misses.length} miss)`,
        rotating(shelf.session({ tools: HOST_TOOLS }), list),
      ],
      [
        `plan() · ${label} skills · new message, no candidate (cached catalog)`,
        rotating(shelf.session({ tools: HOST_TOOLS }), misses),
      ],
      [
        `plan() · ${label} skills · new message with candidates (catalog rebuilt)`,
        rotating(shelf.session({ tools: HOST_TOOLS }), hits),
      ],
      [`plan() · ${label} skills · same message (next step of the turn)`, () => same.plan()],
      [
        `plan() · ${label} skills · new message, ${withTools.length} active skills with allowed-tools`,
        rotating(restricted, list),
      ],
      [
        `plan() · ${label} skills · new message, JSONL event log on`,
        rotating(withLog.shelf.session({ tools: HOST_TOOLS }), list),
      ],
      [`plan() without the catalog · ${label} skills · new message`, rotating(bare, list)],
      [`guard() · ${withTools.length} active skills`, () => guarded.guard("execute")],
      [
        `stateless step: session({ history: ${history.length} items, ${checkpoint.active.length} active }) + plan() · ${label} skills`,
        () => shelf.session({ history, tools: HOST_TOOLS }).plan(),
      ],
      [
        `checkpointed step: session({ state, history }) + plan() · ${label} skills`,
        () => shelf.session({ state: checkpoint, history, tools: HOST_TOOLS }).plan(),
      ],
      [
        `new message on a checkpoint: session({ state, message }) + plan() · ${label} skills`,
        () => shelf.session({ state: fresh, message: list[n++ % list.length]!, tools: HOST_TOOLS }).plan(),
      ],
      [
        `model call, stateless: await openSession({ history }) + plan() + respond(${calls.length} calls) + guard each · ${label} skills`,
        async () => modelCall(await shelf.openSession({ history, tools: HOST_TOOLS })),
      ],
      [
        `model call, checkpointed: await openSession({ state, history }) + plan() + respond(${calls.length} calls) + guard each · ${label} skills`,
        async () => modelCall(await shelf.openSession({ state: checkpoint, history, tools: HOST_TOOLS })),
      ],
      [`reference: match() alone · ${label} skills`, () => matcher.match(skills, list[m++ % list.length]!)],
      [
        `reference: buildCatalog() alone · ${label} skills`,
        () => buildCatalog({ skills, candidates: [skills[c++ % skills.length]!.name] }),
      ],
    ],
    { iterations: 300, time: 2000, warmupIterations: 50 },
  );
  for (const opened of [shelf, withLog.shelf, lasting.shelf]) await opened.close();
  for (const dir of [stateDir, withLog.stateDir, lasting.stateDir])
    fs.rmSync(dir, { recursive: true, force: true });
  return rows;
}

export async function run(): Promise<void> {
  const list = messages();
  console.log(
    `${list.length} distinct messages (MetaTool Task1 queries + requests from corpus descriptions), ` +
      `${HOST_TOOLS.length} host tools. Median (p50) per call.\n`,
  );
  console.log("| task | median | samples |\n|---|---:|---:|");
  for (const count of [1_000, 10_000]) {
    for (const row of await suite(count, list)) {
      const ms = row.median < 0.1 ? `${(row.median * 1000).toFixed(1)} µs` : formatMs(row.median);
      console.log(`| ${row.name} | ${ms} | ${row.samples} |`);
    }
  }
}
