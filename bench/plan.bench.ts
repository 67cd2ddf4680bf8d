/**
 * Sessions and plan(): the per-model-call cost a host pays, at 1,000 and 10,000 real
 * skills (corpus.ts). Each "new message" call plans a different real user request (MetaTool
 * Task1 queries, and requests written from corpus skill descriptions so stage 1 has real
 * candidates), so nothing is served from the session's per-message cache: stage-1 matching,
 * the budgeted catalog, activation tool specs and the tool policy are all computed.
 *
 * Also measured: a replan of the same message (the next step of a tool loop), plan() with two
 * active skills that restrict tools, plan() with the default JSONL event log on, and guard().
 * And what stateless hosts pay on every step and every tool call (the AI SDK and Mastra
 * adapters without a checkpoint): rebuild the session from the conversation, then plan the
 * same message again; and a host with a checkpoint: resume the state, then plan.
 * match() and buildCatalog() alone are shown for reference: plan() is mostly those two.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  buildCatalog,
  createMatcher,
  createSession,
  createShelf,
  type HistoryItem,
  type Session,
  type Shelf,
} from "@skillshelf/core";
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

function messages(): string[] {
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

async function shelfOf(count: number, events: boolean): Promise<{ shelf: Shelf; stateDir: string }> {
  const dir = buildSkillTree(count);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-plan-state-"));
  const shelf = await createShelf({
    root: path.dirname(dir),
    projectDirs: [dir],
    userDirs: [],
    stateDir,
    ...(events ? {} : { events: false }),
  });
  return { shelf, stateDir };
}

function rotating(session: Session, list: readonly string[]) {
  let i = 0;
  return () => session.plan({ message: list[i++ % list.length]!, tools: HOST_TOOLS });
}

async function suite(count: number, list: readonly string[]): Promise<Measured[]> {
  const { shelf, stateDir } = await shelfOf(count, false);
  const withLog = await shelfOf(count, true);
  const skills = shelf.skills().filter((s) => !s.role && !s.disableModelInvocation);

  // Split the messages by whether stage 1 finds a candidate: a turn without one reuses the
  // shelf's cached catalog; a new candidate set builds a new catalog.
  const matcher = createMatcher();
  const hits = list.filter((m) => matcher.match(skills, m).candidates.length > 0);
  const misses = list.filter((m) => matcher.match(skills, m).candidates.length === 0);

  const same = shelf.session();
  same.plan({ message: list[0]!, tools: HOST_TOOLS });

  // Two active skills with whitelists: the policy is an intersection over both.
  const withTools = skills.filter((s) => s.allowedTools && s.allowedTools.length > 0).slice(0, 2);
  const restricted = shelf.session();
  for (const s of withTools) restricted.activate(s.name, { by: "code" });
  const guarded = shelf.session();
  for (const s of withTools) guarded.activate(s.name, { by: "code" });
  guarded.plan({ tools: HOST_TOOLS });

  // A stateless host's step: the conversation so far (a "/name" refused earlier, the current
  // request, one skill activated through its skill_<name> tool and one through activate_skill,
  // host tool calls), rebuilt into a session, then the same message planned again.
  const request = hits[0]!;
  const firstPlan = shelf.session().plan({ message: request, tools: HOST_TOOLS });
  const history: HistoryItem[] = [
    { kind: "user", text: "/no-such-skill hello" },
    { kind: "tool-call", toolName: "read_file", input: { path: "README.md" }, output: "…" },
    { kind: "user", text: request },
    {
      kind: "tool-call",
      toolName: firstPlan.activationTools[0]!.name,
      input: {},
      output: { status: "success" },
    },
    ...(withTools[0]
      ? [
          {
            kind: "tool-call" as const,
            toolName: "activate_skill",
            input: { name: withTools[0].name },
            output: { status: "success" },
          },
        ]
      : []),
    { kind: "tool-call", toolName: "read_file", input: { path: "a.md" }, output: "…" },
    { kind: "tool-call", toolName: "grep", input: { pattern: "x" }, output: "…" },
  ];
  const checkpoint = shelf.sessionFromHistory(history).toJSON();

  // The session's own work (explicit /name, match, tool specs, policy, system text) without the catalog.
  const bare = createSession({ skills: shelf, match: (all, message) => matcher.match(all, message) });

  let m = 0;
  let c = 0;
  const label = count.toLocaleString("en-US");
  const rows = await measure(
    [
      [
        `plan() · ${label} skills · new message each call (${hits.length} hit / ${misses.length} miss)`,
        rotating(shelf.session(), list),
      ],
      [
        `plan() · ${label} skills · new message, no candidate (cached catalog)`,
        rotating(shelf.session(), misses),
      ],
      [
        `plan() · ${label} skills · new message with candidates (catalog rebuilt)`,
        rotating(shelf.session(), hits),
      ],
      [
        `plan() · ${label} skills · same message (next step of the turn)`,
        () => same.plan({ tools: HOST_TOOLS }),
      ],
      [
        `plan() · ${label} skills · new message, ${withTools.length} active skills with allowed-tools`,
        rotating(restricted, list),
      ],
      [`plan() · ${label} skills · new message, JSONL event log on`, rotating(withLog.shelf.session(), list)],
      [`plan() without the catalog · ${label} skills · new message`, rotating(bare, list)],
      [`guard() · ${withTools.length} active skills`, () => guarded.guard("execute")],
      [
        `stateless step: sessionFromHistory(${history.length} items, ${checkpoint.active.length} active) + plan() · ${label} skills`,
        () => shelf.sessionFromHistory(history).plan({ message: request, tools: HOST_TOOLS }),
      ],
      [
        `checkpointed step: session(state) + plan({ planned }) · ${label} skills`,
        () => shelf.session(checkpoint).plan({ message: request, tools: HOST_TOOLS, planned: true }),
      ],
      [`reference: match() alone · ${label} skills`, () => matcher.match(skills, list[m++ % list.length]!)],
      [
        `reference: buildCatalog() alone · ${label} skills`,
        () => buildCatalog({ skills, candidates: [skills[c++ % skills.length]!.name] }),
      ],
    ],
    { iterations: 300, time: 2000, warmupIterations: 50 },
  );
  await shelf.close();
  await withLog.shelf.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(withLog.stateDir, { recursive: true, force: true });
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
