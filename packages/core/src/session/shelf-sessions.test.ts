/**
 * Sessions from a real shelf: real SKILL.md files from the corpus, the real loader,
 * matcher, catalog, usage store and JSONL event log, in a temp project.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeWithSharedData, sharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { readEvents } from "../events/read-events.js";
import { summarizeEvents } from "../events/summarize.js";
import { createMatcher } from "../match/matcher.js";
import { createShelf, type Shelf } from "../shelf.js";
import type { HistoryItem } from "../types.js";
import { createMemoryUsageStore } from "../usage/store.js";
import { TOOL_NAME_PATTERN } from "./activation-tools.js";
import { createShelfSessions } from "./shelf-sessions.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const CORPUS = sharedData("skills-corpus/");
const FROM_CORPUS = {
  "review-contract": "anthropics--knowledge-work-plugins/small-business/skills/review-contract",
  "make-repo-contribution": "github--awesome-copilot/skills/make-repo-contribution",
  "task-management": "anthropics--knowledge-work-plugins/productivity/skills/task-management",
  brainstorming: "obra--superpowers/skills/brainstorming",
  "webapp-testing": "anthropics--skills/skills/webapp-testing",
};

// Seed 000's accident: a skill that must only run when the user asks for it.
const BULK_RENAME = `---
name: bulk-rename
description: Renames many files at once following a naming pattern.
disable-model-invocation: true
argument-hint: <pattern>
---
Rename every file matching $0 and report what changed.
`;

const HOST_TOOLS = ["read_file", "edit_file", "execute", "web_search", "delete_file"];

let root: string;
let shelf: Shelf | undefined;

async function addSkill(name: string, content: string) {
  const dir = path.join(root, ".skillshelf", "skills", name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "SKILL.md"), content);
}

async function open(options: Parameters<typeof createShelf>[0] = {}) {
  shelf = await createShelf({ root, userDirs: [], ...options });
  return shelf;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-shelf-sessions-"));
  for (const [name, rel] of Object.entries(FROM_CORPUS)) {
    await cp(path.join(CORPUS, rel), path.join(root, ".skillshelf", "skills", name), { recursive: true });
  }
  await addSkill("bulk-rename", BULK_RENAME);
});

afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

describeWithSharedData("shelf.session() on real skills", () => {
  it("plans a turn: candidates, valid activation tools, catalog in the system text", async () => {
    const s = await open();
    const plan = s
      .session()
      .plan({ message: "Please review this contract and flag any red flags", tools: HOST_TOOLS });
    expect(plan.candidates[0]?.name).toBe("review-contract");
    expect(plan.tools[0]?.name).toBe("skill_review-contract");
    for (const tool of plan.tools) expect(tool.name).toMatch(TOOL_NAME_PATTERN);
    // Never offered to the model: disable-model-invocation skills and roles.
    const offered = JSON.stringify(plan.tools);
    expect(offered).not.toContain("bulk-rename");
    expect(offered).not.toContain('"researcher"');
    expect(plan.system).toContain("review-contract");
    expect(plan.system).not.toContain("bulk-rename");
    expect(plan.allowedTools).toEqual(HOST_TOOLS);
  });

  it("enforces a real whitelist with Claude Code names mapped to the host's tools", async () => {
    const s = await open();
    const session = s.session();
    expect(session.activate("make-repo-contribution", { by: "model" }).status).toBe("success");
    const plan = session.plan({ tools: HOST_TOOLS });
    // allowed-tools: Read Edit Bash(git:*) Bash(gh issue:*) Bash(gh pr:*)
    expect(plan.allowedTools).toEqual(["read_file", "edit_file", "execute"]);
    expect(plan.system).toContain('<skill_content name="make-repo-contribution">');
    expect(session.guard("delete_file").allowed).toBe(false);
    // A second skill narrows further (Read, WebFetch, Bash): never wider.
    session.activate("review-contract", { by: "model" });
    expect(session.plan({ tools: HOST_TOOLS }).allowedTools).toEqual(["read_file", "execute"]);
  });

  it("takes tool aliases from the shelf, merged with per-session overrides", async () => {
    const s = await open({ toolAliases: { Bash: "sh" } });
    const tools = ["fs_read", "read_file", "sh", "execute"];
    const plain = s.session();
    plain.activate("make-repo-contribution");
    expect(plain.plan({ tools }).allowedTools).toEqual(["read_file", "sh"]);
    const custom = s.session({ toolAliases: { Read: "fs_read" }, timeZone: "UTC" });
    custom.activate("make-repo-contribution");
    expect(custom.plan({ tools }).allowedTools).toEqual(["fs_read", "sh"]);
    expect(custom.plan({ tools }).system).toMatch(/Today is \w+day, \d{4}-\d{2}-\d{2} \(UTC\)/);
  });

  it("runs /bulk-rename for the user but refuses it to the model", async () => {
    const s = await open();
    const session = s.session();
    const refused = session.callSkillTool({ name: "activate_skill", input: { name: "bulk-rename" } });
    expect(refused).toMatchObject({ status: "error", error_type: "MODEL_INVOCATION_DISABLED" });
    const plan = session.plan({ message: "/bulk-rename *.jpeg", tools: HOST_TOOLS });
    expect(plan.explicit?.status).toBe("success");
    expect(plan.system).toContain("Rename every file matching *.jpeg and report what changed.");
    const hidden = session.plan({ message: "/task-management add milk", tools: HOST_TOOLS });
    expect(hidden.explicit).toMatchObject({ status: "error", error_type: "NOT_USER_INVOCABLE" });
  });

  it("lists a real skill's resources when it is activated", async () => {
    const s = await open();
    const result = s.session().activate("webapp-testing", { by: "model" });
    if (result.status !== "success") throw new Error(result.message);
    expect(result.data.resources.length).toBeGreaterThan(0);
    expect(result.data.resources.every((r) => !r.startsWith(".") && r !== "SKILL.md")).toBe(true);
    expect(result.data.resources.some((r) => r.startsWith("scripts/"))).toBe(true);
  });

  it("records usage and writes every decision to <stateDir>/events.jsonl", async () => {
    const s = await open();
    const session = s.session();
    session.plan({ message: "review this contract", tools: HOST_TOOLS });
    session.callSkillTool({ name: "skill_review-contract", input: {} });
    session.callSkillTool({ name: "activate_skill", input: { name: "bulk-rename" } });
    session.guard("delete_file");
    await s.close();
    shelf = undefined;

    const usage = JSON.parse(await readFile(path.join(root, ".skillshelf", "usage.json"), "utf8"));
    expect(usage.skills["review-contract"].count).toBe(1);
    const { events, invalidLines } = await readEvents(path.join(root, ".skillshelf", "events.jsonl"));
    expect(invalidLines).toEqual([]);
    expect(events.map((e) => e.type)).toEqual([
      "candidates",
      "activated",
      "activation-refused",
      "tool-blocked",
    ]);
    const summary = summarizeEvents(events);
    expect(summary.skills.find((x) => x.name === "review-contract")).toMatchObject({
      activations: 1,
      byModel: 1,
    });
    expect(summary.blocked).toMatchObject({ total: 1, bySkill: [{ skill: "review-contract", count: 1 }] });
  });

  it("shares catalogs between sessions, and reorders them when a session records a use", async () => {
    const s = await open();
    const line = (text: string, name: string) => text.indexOf(`- ${name}:`);
    const before = s.session().plan({ message: "hello there", tools: [] }).system;
    expect(line(before, "brainstorming")).toBeGreaterThan(-1);
    expect(line(before, "brainstorming")).toBeLessThan(line(before, "webapp-testing"));
    const other = s.session();
    other.activate("webapp-testing", { by: "model" });
    other.deactivate("webapp-testing");
    const after = s.session().plan({ message: "hello there", tools: [] }).system;
    expect(line(after, "webapp-testing")).toBeLessThan(line(after, "brainstorming"));
  });

  it("a SKILL.md read by the host's file tool counts as use and reorders cached catalogs", async () => {
    const s = await open();
    const line = (text: string, name: string) => text.indexOf(`- ${name}:`);
    const before = s.session().plan({ message: "hello there", tools: [] }).system;
    expect(line(before, "brainstorming")).toBeLessThan(line(before, "webapp-testing"));
    s.noteRead(path.join(root, ".skillshelf", "skills", "webapp-testing", "SKILL.md"));
    const after = s.session().plan({ message: "hello there", tools: [] }).system;
    expect(line(after, "webapp-testing")).toBeLessThan(line(after, "brainstorming"));
  });

  it("opens a session from history for stateless hosts", async () => {
    const s = await open();
    const session = s.session({
      history: [
        { kind: "user", text: "/bulk-rename *.png" },
        { kind: "tool-call", toolName: "skill_review-contract", input: {}, output: { status: "success" } },
        { kind: "user", text: "thanks" },
      ],
    });
    expect(session.state.active.map((a) => a.name)).toEqual(["bulk-rename", "review-contract"]);
  });

  it("never throws when the catalog's tokenizer does: names only, and a diagnostic", async () => {
    const s = await open({
      catalog: {
        countTokens: () => {
          throw new Error("bad tokenizer");
        },
      },
    });
    const plan = s.session().plan({ message: "review this contract for risks", tools: HOST_TOOLS });
    expect(plan.candidates[0]?.name).toBe("review-contract");
    expect(plan.system).toContain("brainstorming");
    expect(plan.diagnostics).toContainEqual(
      expect.objectContaining({ code: "plan-fallback", message: expect.stringContaining("bad tokenizer") }),
    );
  });

  it('refuses "/reviewer" (a builtin role) and tells the model to delegate instead', async () => {
    const s = await open();
    const plan = s.session().plan({ message: "/reviewer look at my diff", tools: HOST_TOOLS });
    expect(plan.explicit).toMatchObject({ status: "error", error_type: "NOT_USER_INVOCABLE" });
    expect(plan.system).toMatch(/<skill_command_refused command="\/reviewer look at my diff"[\s\S]*delegat/);
    expect(plan.system).not.toMatch(/^- reviewer:/m);
  });

  it("takes the host's tools per session, so a host tool named skill_<x> is never read as an activation", async () => {
    const s = await open();
    const history = [
      { kind: "user" as const, text: "review it" },
      { kind: "tool-call" as const, toolName: "skill_review-contract", input: {}, output: "host output" },
    ];
    expect(s.session({ history }).state.active.map((a) => a.name)).toEqual(["review-contract"]);
    const tools = [...HOST_TOOLS, "skill_review-contract"];
    expect(s.session({ history, tools }).state.active).toEqual([]);
    const session = s.session({ tools });
    expect(session.isSkillTool("skill_review-contract")).toBe(false);
    const plan = session.plan({ message: "review this contract for risks", tools });
    const alt = plan.tools[0]!.name;
    expect(alt).toMatch(/^skill_review-contract_[0-9a-f]{8}$/);
    expect(s.session().callSkillTool({ name: alt, input: {} })?.status).toBe("success");
  });

  it("recordDelegation: a host that runs a role sub-agent itself still gets a delegated event", async () => {
    const s = await open();
    s.recordDelegation({ role: "reviewer", task: "  Review src/a.ts  ", tools: ["read_file"] });
    s.recordDelegation({ role: "", task: "nothing" } as never); // malformed: ignored, never thrown
    await s.close();
    shelf = undefined;
    const { events } = await readEvents(path.join(root, ".skillshelf", "events.jsonl"));
    expect(events).toEqual([
      expect.objectContaining({
        type: "delegated",
        at: expect.any(String),
        role: "reviewer",
        tools: ["read_file"],
      }),
    ]);
  });

  it("can turn events off", async () => {
    const s = await open({ events: false });
    s.session().activate("brainstorming");
    await s.close();
    shelf = undefined;
    expect((await readEvents(path.join(root, ".skillshelf", "events.jsonl"))).events).toEqual([]);
  });
});

describeWithSharedData("createShelfSessions", () => {
  it("keeps activate_skill as small as a budget-limited catalog", () => {
    const skills = Array.from({ length: 300 }, (_, i) =>
      makeSkill(`skill-${String(i).padStart(3, "0")}`, { description: `Handles task number ${i} of many.` }),
    );
    const sessions = createShelfSessions({
      skills: fixedSource(skills),
      matcher: createMatcher(),
      usage: createMemoryUsageStore(),
      events: false,
      stateDir: root,
      budgetTokens: 400,
    });
    const plan = sessions.session().plan({ message: "hello", tools: [] });
    expect(plan.system).toMatch(/\+\d+ more skills not listed here/);
    const generic = plan.tools.find((t) => t.name === "activate_skill")!;
    const listed = (generic.inputSchema.properties as Record<string, { enum: string[] }>).name!.enum;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(300);
    for (const name of listed) expect(plan.system).toContain(name);
  });
});

describeWithSharedData("createShelfSessions: what rebuilt sessions share", () => {
  const skills = () =>
    fixedSource([
      makeSkill("pdf-report", { description: "Builds PDF reports from tables." }),
      makeSkill("docx-letter", { description: "Writes DOCX letters." }),
      makeSkill("xlsx-sheet", { description: "Edits XLSX spreadsheets." }),
    ]);

  function counted() {
    const matcher = createMatcher();
    const calls: string[] = [];
    return {
      calls,
      matcher: {
        ...matcher,
        match: (...args: Parameters<typeof matcher.match>) => {
          calls.push(args[1]);
          return matcher.match(...args);
        },
      },
    };
  }

  /**
   * Two skills stage 1 scores alike (the same words), so usage decides their order: omega
   * was used a minute ago. Match calls are counted from here on.
   */
  function tiedTwins() {
    const { calls, matcher } = counted();
    const twins = fixedSource([
      makeSkill("alpha-maker", { description: "Builds PDF reports from tables." }),
      makeSkill("omega-maker", { description: "Builds PDF reports from tables." }),
      makeSkill("xlsx-sheet", { description: "Edits XLSX spreadsheets." }),
    ]);
    const usage = createMemoryUsageStore();
    const sessions = createShelfSessions({ skills: twins, matcher, events: false, stateDir: root, usage });
    sessions.session().plan({ message: "hello", tools: [] });
    usage.record("omega-maker", new Date(Date.now() - 60_000));
    calls.length = 0;
    return { calls, sessions };
  }

  it("matches a message once for every session that plans it, and again after a use only when usage broke a tie", () => {
    const { calls, sessions } = tiedTwins();
    const tied = "build a pdf report from this table";
    const plain = "edit the xlsx spreadsheets";
    const before = sessions.session().plan({ message: tied, tools: [] });
    expect(before.candidates.map((c) => c.name).slice(0, 2)).toEqual(["omega-maker", "alpha-maker"]);
    sessions.session().plan({ message: plain, tools: [] });
    expect(calls).toEqual([tied, plain]);
    sessions.recordUse("alpha-maker");
    const after = sessions.session().plan({ message: tied, tools: [] });
    sessions.session().plan({ message: plain, tools: [] });
    // The tie now goes the other way; the plain message kept its result.
    expect(after.candidates.map((c) => c.name).slice(0, 2)).toEqual(["alpha-maker", "omega-maker"]);
    expect(calls).toEqual([tied, plain, tied]);
  });

  it("offers a turn's next model call the same whether its session was kept, resumed from the state or rebuilt from the history", () => {
    const { calls, matcher } = counted();
    // One group: stage 1 offers the one of the two that wins the tie, and usage breaks it.
    const twins = fixedSource([
      makeSkill("alpha-maker", { description: "Builds PDF reports from tables.", group: "maker" }),
      makeSkill("omega-maker", { description: "Builds PDF reports from tables.", group: "maker" }),
      makeSkill("xlsx-sheet", { description: "Edits XLSX spreadsheets." }),
    ]);
    const usage = createMemoryUsageStore();
    const sessions = createShelfSessions({ skills: twins, matcher, events: false, stateDir: root, usage });
    sessions.session().plan({ message: "hello", tools: [] });
    usage.record("omega-maker", new Date(Date.now() - 60_000));
    calls.length = 0;
    const tied = "build a pdf report from this table";
    const history: HistoryItem[] = [{ kind: "user", text: tied }];
    const kept = sessions.session({ history, tools: [] });
    const first = kept.plan();
    expect(first.candidates.map((c) => c.name)).toContain("omega-maker");
    expect(first.candidates.map((c) => c.name)).not.toContain("alpha-maker");
    // The model picks the other one of the group through activate_skill: its use now wins the tie.
    const call = { id: "c1", name: "activate_skill", input: { name: "alpha-maker" } };
    kept.respond([call]);
    const output = kept.callSkillTool(call);
    expect(output?.status).toBe("success");
    history.push({ kind: "tool-call", id: "c1", toolName: "activate_skill", input: call.input, output });

    const offer = (plan: ReturnType<typeof kept.plan>) => ({
      candidates: plan.candidates.map((c) => c.name),
      tools: plan.tools,
      system: plan.system,
    });
    const next = offer(kept.plan());
    expect(offer(sessions.session({ state: kept.state, history, tools: [] }).plan())).toEqual(next);
    expect(offer(sessions.session({ history, tools: [] }).plan())).toEqual(next);
    // The kept session asked stage 1 again and the use changed the tie: omega is no candidate now.
    expect(next.candidates).not.toContain("omega-maker");
    expect(calls[0]).toBe(tied);
    expect(calls.filter((m) => m === tied).length).toBe(2);
  });

  it("matches a message once for every session that plans it, a use of another skill changing nothing", () => {
    const { calls, matcher } = counted();
    const sessions = createShelfSessions({
      skills: skills(),
      matcher,
      events: false,
      stateDir: root,
      usage: createMemoryUsageStore(),
    });
    const message = "build a pdf report from this table";
    sessions.session().plan({ message: "hello", tools: [] }); // the first catalog marks every skill as seen
    calls.length = 0;
    const first = sessions.session().plan({ message, tools: [] });
    const again = sessions
      .session({ history: [{ kind: "user", text: message }] })
      .plan({ message, tools: [] });
    expect(again.candidates).toEqual(first.candidates);
    expect(calls).toEqual([message]);
    sessions.recordUse("docx-letter");
    sessions.session().plan({ message, tools: [] });
    expect(calls).toEqual([message]);
  });

  it("also matches again when the usage store changes behind the shelf's back (store.version())", () => {
    const { calls, matcher } = counted();
    const usage = createMemoryUsageStore();
    const twins = fixedSource([
      makeSkill("alpha-maker", { description: "Builds PDF reports from tables." }),
      makeSkill("omega-maker", { description: "Builds PDF reports from tables." }),
      makeSkill("xlsx-sheet", { description: "Edits XLSX spreadsheets." }),
    ]);
    const sessions = createShelfSessions({ skills: twins, matcher, events: false, stateDir: root, usage });
    const message = "build a pdf report from this table";
    sessions.session().plan({ message: "hello", tools: [] });
    calls.length = 0;
    sessions.session().plan({ message, tools: [] });
    sessions.session().plan({ message, tools: [] });
    expect(calls).toHaveLength(1);
    usage.record("omega-maker"); // another process sharing the store, say
    sessions.session().plan({ message, tools: [] });
    expect(calls).toHaveLength(2);
  });

  it("shared catalogs and activate_skill enums still follow each session's own active skills", () => {
    const sessions = createShelfSessions({
      skills: skills(),
      matcher: createMatcher(),
      events: false,
      stateDir: root,
    });
    const enumOf = (plan: ReturnType<ReturnType<typeof sessions.session>["plan"]>) =>
      (
        plan.tools.find((t) => t.name === "activate_skill")!.inputSchema.properties as Record<
          string,
          { enum: string[] }
        >
      ).name!.enum;
    const idle = sessions.session({ message: "hello" });
    const busy = sessions.session({ message: "hello" });
    busy.activate("docx-letter");
    for (let i = 0; i < 2; i++) {
      const a = idle.plan();
      const b = busy.plan();
      expect(enumOf(a)).toEqual(["pdf-report", "docx-letter", "xlsx-sheet"]);
      expect(enumOf(b)).toEqual(["pdf-report", "xlsx-sheet"]);
      expect(a.system).toMatch(/^- docx-letter:/m);
      expect(b.system).not.toMatch(/^- docx-letter:/m);
    }
  });
});

describeWithSharedData("shelf.roles()", () => {
  it("has the builtin researcher, developer and reviewer", async () => {
    const s = await open();
    expect(
      s
        .roles()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["developer", "researcher", "reviewer"]);
    const reviewer = s.role("reviewer")!;
    expect(reviewer.scope).toBe("builtin");
    expect(reviewer.file).toBe("builtin:reviewer");
    expect(reviewer.instructions).toContain("# Reviewer");
    expect(reviewer.disallowedTools).toContain("Write");
    expect(s.role("brainstorming")).toBeUndefined(); // a skill, not a role
  });

  it("a project role skill overrides a builtin role and adds new ones", async () => {
    await addSkill(
      "reviewer",
      "---\nname: reviewer\ndescription: Our house reviewer.\nrole: true\nallowed-tools: Read\nmodel: small-model\n---\nReview like we do.\n",
    );
    await addSkill(
      "translator",
      "---\nname: translator\ndescription: Translates.\nrole: true\n---\nTranslate.\n",
    );
    const s = await open();
    expect(s.role("reviewer")).toMatchObject({
      scope: "project",
      instructions: "Review like we do.",
      allowedTools: ["Read"],
      model: "small-model",
    });
    expect(s.role("translator")?.allowedTools).toBeUndefined();
    expect(s.roles()).toHaveLength(4);
  });

  it("builtinRoles: false leaves only the shelf's own roles", async () => {
    const s = await open({ builtinRoles: false });
    expect(s.roles()).toEqual([]);
  });
});
