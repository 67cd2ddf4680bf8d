// Two core builds, everything a model or a host sees of a turn: byte-identical or not. For
// changes to the session, the catalog or stage 1 that must not change what they answer
// (speed work). Both builds run in lockstep over one copy of a skills folder, under one fake
// clock (the global Date, advanced a second per step, so timestamps, usage order and
// first-seen marks agree), each with its own project root (usage file, state) and a memory
// event sink. Per request: a new request planned as an adapter's first model call does
// (`refresh()`, `openSession({ history, tools })`, `plan()`); the model activates the skill
// the plan offers (its `skill_<name>` tool, else `activate_skill` with the first name it
// allows) and the same session plans again; a session rebuilt from the history with that
// call's output plans the next call; the next request follows in that conversation; then
// "/done". Every tenth request also runs with fewer host tools (skills whose tools are
// missing are left out), and every 40th edits the description of a skill it offered (then
// both shelves refresh and plan again: the new text must show, and the same in both).
// Compared after each step: the plan (system text, tools and their enums, unoffered tools,
// allowed tools, candidates, vetoed, ended, diagnostics, model), the tool call's result, the
// guard's answers, the session state, and the events emitted since the last step.
// Prints the number of steps compared, how many differ (the first few are shown), how many
// activations succeeded and skills were edited, and a SHA-256 prefix of each build's output.
// Usage: node --experimental-strip-types --no-warnings plan-identity.ts <base dist/index.js> <branch dist/index.js> <skills dir> <messages.json>
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type * as Core from "@skillshelf/core";

const [a, b, skillsDir, messagesFile] = process.argv.slice(2);
if (!a || !b || !skillsDir || !messagesFile)
  throw new Error(
    "usage: plan-identity.ts <base dist/index.js> <branch dist/index.js> <skills dir> <messages.json>",
  );

// ── one fake clock for both builds ──
const RealDate = Date;
let fakeNow = RealDate.UTC(2026, 11, 1, 12, 0, 0);
class FakeDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(fakeNow);
    else super(...(args as [number]));
  }
  static now() {
    return fakeNow;
  }
}
globalThis.Date = FakeDate as DateConstructor;
const tick = () => {
  fakeNow += 1000;
};

const cores = [(await import(a)) as typeof Core, (await import(b)) as typeof Core];
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const TOOLS = ["read_file", "write_file", "edit_file", "ls", "grep", "execute", "web_search"];
const FEW_TOOLS = ["read_file", "web_search"];

const work = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-plan-identity-"));
const dir = path.join(work, "skills");
fs.cpSync(skillsDir, dir, { recursive: true });
const shelves = await Promise.all(
  cores.map(async (core, k) => {
    const root = path.join(work, `root-${k}`);
    fs.mkdirSync(root);
    const events = core.memoryEventSink();
    const shelf = await core.createShelf({ root, projectDirs: [dir], userDirs: [], events });
    return { shelf, events };
  }),
);

let compared = 0;
let activations = 0;
let edits = 0;
let differ = 0;
const hashes = cores.map(() => createHash("sha256"));
/** One step of both builds: each output serialised with the events emitted since the last step. */
function compare(what: string, outputs: unknown[]): void {
  const texts = outputs.map((output, k) => {
    const sink = shelves[k]!.events;
    const text = JSON.stringify({ output, events: sink.events });
    sink.clear();
    return text;
  });
  texts.forEach((text, k) => {
    hashes[k]?.update(text);
  });
  compared++;
  tick();
  if (texts[0] === texts[1]) return;
  differ++;
  if (differ <= 3) {
    const [x = "", y = ""] = texts;
    let at = 0;
    while (at < x.length && x[at] === y[at]) at++;
    console.log(
      `differs (${what}) at ${at}:\n  base:   …${x.slice(Math.max(0, at - 200), at + 300)}\n  branch: …${y.slice(Math.max(0, at - 200), at + 300)}`,
    );
  }
}

type Plan = ReturnType<Core.Session["plan"]>;
/** The call the model makes to take the skill a plan offers, or none. */
function activationCall(shelf: Core.Shelf, plan: Plan, id: string): Core.ToolCall | undefined {
  const own = plan.tools.find(
    (t) => t.name.startsWith("skill_") && shelf.get(t.name.slice("skill_".length))?.context !== "fork",
  );
  if (own) return { id, name: own.name, input: {} };
  const generic = plan.tools.find((t) => t.name === "activate_skill");
  const names = (generic?.parameters as { properties?: { name?: { enum?: string[] } } } | undefined)
    ?.properties?.name?.enum;
  const name = plan.candidates[0]?.name ?? names?.[0];
  return generic && name ? { id, name: generic.name, input: { name } } : undefined;
}

const GUARDED: Core.ToolCall[] = [
  { name: "read_file", input: { path: "README.md" } },
  { name: "execute", input: { command: "git status" } },
  { name: "write_file", input: { path: path.join(dir, "x", "SKILL.md"), content: "x" } },
];

const each = async <T>(fn: (shelf: Core.Shelf, k: number) => T | Promise<T>): Promise<T[]> => {
  const out: T[] = [];
  for (const [k, { shelf }] of shelves.entries()) out.push(await fn(shelf, k));
  return out;
};

for (const [i, message] of messages.entries()) {
  const next = messages[(i + 1) % messages.length] as string;
  const tools = i % 10 === 9 ? FEW_TOOLS : TOOLS;
  const ids = { session: `s${i}`, thread: `t${i}` };
  const opening: Core.HistoryItem[] = [
    { kind: "user", text: "Hi, I am working on our project today." },
    { kind: "user", text: message },
  ];
  await each((shelf) => shelf.refresh());
  // The first model call of a new request.
  const sessions = await each((shelf) => shelf.openSession({ tools, history: opening, ids }));
  const plans = sessions.map((s) => s.plan());
  compare(`first plan of ${i}`, plans);
  compare(
    `guard of ${i}`,
    sessions.map((s) => GUARDED.map((call) => s.guard(call))),
  );

  // The model takes the skill offered (the base's choice, made in both).
  const call = activationCall(shelves[0]!.shelf, plans[0]!, `call-${i}`);
  let history = opening;
  if (call) {
    const results = sessions.map((s) => s.callSkillTool(call));
    compare(`activation of ${i}`, results);
    if ((results[0] as { status?: string } | undefined)?.status === "success") activations++;
    compare(
      `plan after the activation of ${i}`,
      sessions.map((s) => [s.plan(), s.toJSON(), GUARDED.map((c) => s.guard(c))]),
    );
    history = [
      ...opening,
      { kind: "tool-call", id: call.id, toolName: call.name, input: call.input, output: results[0] },
    ];
    // The next model call: a session rebuilt from the history.
    const rebuilt = await each((shelf) => shelf.openSession({ tools, history, ids }));
    compare(
      `rebuilt plan of ${i}`,
      rebuilt.map((s) => [s.plan(), s.toJSON()]),
    );
  }

  // A skill edited between two plans: both shelves see the new text.
  if (i % 40 === 39 && plans[0]!.candidates[0]) {
    const file = shelves[0]!.shelf.get(plans[0]!.candidates[0].name)?.file;
    if (file) {
      const text = fs.readFileSync(file, "utf8");
      fs.writeFileSync(file, text.replace(/^description: /mu, `description: Edited in step ${i}. `));
      await each((shelf) => shelf.refresh());
      const edited = await each((shelf) => shelf.openSession({ tools, history: opening, ids }));
      const after = edited.map((s) => s.plan());
      if (!after[0]!.system.includes(`Edited in step ${i}.`))
        console.log(`the edit of ${file} is not in the base's catalog`);
      compare(`plan after an edit in ${i}`, after);
      edits++;
    }
  }

  // The next request in the same conversation, then "/done".
  await each((shelf) => shelf.refresh());
  const followUp: Core.HistoryItem[] = [...history, { kind: "user", text: next }];
  const follow = await each((shelf) => shelf.openSession({ tools, history: followUp, ids }));
  compare(
    `next request after ${i}`,
    follow.map((s) => [s.plan(), s.toJSON()]),
  );
  const done: Core.HistoryItem[] = [...followUp, { kind: "user", text: "/done" }];
  const ending = await each((shelf) => shelf.openSession({ tools, history: done, ids }));
  compare(
    `"/done" after ${i}`,
    ending.map((s) => [s.plan(), s.toJSON()]),
  );
}

await each((shelf) => shelf.close());
globalThis.Date = RealDate;
fs.rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify({
    compared,
    differ,
    activations,
    edits,
    sha256: hashes.map((h) => h.digest("hex").slice(0, 16)),
  }),
);
