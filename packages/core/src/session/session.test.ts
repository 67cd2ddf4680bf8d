import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import type { ActivationResult, EndResult, MatchResult, Skill } from "../types.js";
import { ACTIVATE_SKILL_TOOL, TOOL_NAME_PATTERN } from "./activation-tools.js";
import { createSession, type SessionMatcher, type SessionOptions } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

/** Stand-in for stage 1: a skill is a candidate when its name appears in the message, in list order. */
const byName: SessionMatcher = (skills, message): MatchResult => {
  const candidates = skills
    .filter((s) => message.includes(s.name))
    .map((s, i) => ({ name: s.name, score: 10 - i, reasons: [{ kind: "name" as const, matched: s.name }] }));
  return { candidates, vetoed: [], ambiguous: false };
};

const NOW = new Date("2026-11-30T10:00:00Z"); // a Monday

function setup(skills: Skill[], options: Partial<SessionOptions> = {}) {
  const events = memoryEventSink();
  const recorded: string[] = [];
  const source = fixedSource(skills);
  const session = createSession({
    skills: source,
    match: byName,
    catalog: ({ skills: offered }) => ({ text: `CATALOG: ${offered.map((s) => s.name).join(", ")}` }),
    usage: { record: (name) => recorded.push(name) },
    events,
    now: () => NOW,
    timeZone: "UTC",
    ...options,
  });
  return { session, events, recorded, source };
}

function expectError(result: ActivationResult | EndResult | undefined, type: string) {
  expect(result?.status).toBe("error");
  if (result?.status === "error") {
    expect(result.error_type).toBe(type);
    expect(result.message.length).toBeGreaterThan(20);
  }
  return result as Extract<ActivationResult, { status: "error" }>;
}

const TOOLS = ["read_file", "write_file", "execute", "web_search"];

describe("plan: what the model is offered", () => {
  it("offers nothing and restricts nothing when there are no skills", () => {
    const { session } = setup([]);
    const plan = session.plan({ message: "hello", tools: TOOLS });
    expect(plan.tools).toEqual([]);
    expect(plan.system).toBe("");
    expect(plan.allowedTools).toEqual(TOOLS);
    expect(plan.activeToolNames).toEqual(TOOLS);
    expect(plan.candidates).toEqual([]);
  });

  it("gives the top 3 candidates their own tool and the rest one activate_skill enum", () => {
    const names = ["alpha", "beta", "gamma", "delta", "epsilon"];
    const { session } = setup(names.map((n) => makeSkill(n)));
    const plan = session.plan({ message: "alpha beta gamma delta", tools: TOOLS });
    expect(plan.candidates.map((c) => c.name)).toEqual(["alpha", "beta", "gamma", "delta"]);
    expect(plan.tools.map((t) => t.name)).toEqual([
      "skill_alpha",
      "skill_beta",
      "skill_gamma",
      ACTIVATE_SKILL_TOOL,
    ]);
    const generic = plan.tools.at(-1)!;
    const nameProp = (generic.inputSchema.properties as Record<string, { enum: string[] }>).name;
    expect(nameProp?.enum).toEqual(["delta", "epsilon"]);
    expect(generic.inputSchema.required).toEqual(["name"]);
    expect(plan.activeToolNames).toEqual([
      ...TOOLS,
      "skill_alpha",
      "skill_beta",
      "skill_gamma",
      ACTIVATE_SKILL_TOOL,
    ]);
    expect(plan.system).toContain("CATALOG: alpha, beta, gamma, delta, epsilon");
  });

  it("limits activate_skill's enum to what the catalog could name within its budget", () => {
    const names = ["alpha", "beta", "gamma", "delta", "epsilon"];
    const { session } = setup(
      names.map((n) => makeSkill(n)),
      {
        catalog: ({ candidates }) => ({
          text: "CATALOG",
          names: [...candidates.map((c) => c.name), "epsilon"],
        }),
      },
    );
    const plan = session.plan({ message: "alpha delta", tools: [] });
    expect(plan.tools.map((t) => t.name)).toEqual(["skill_alpha", "skill_delta", ACTIVATE_SKILL_TOOL]);
    const generic = plan.tools.at(-1)!;
    expect((generic.inputSchema.properties as Record<string, { enum: string[] }>).name?.enum).toEqual([
      "epsilon",
    ]);
    // A skill left out of the enum can still be activated by name.
    expect(session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: { name: "gamma" } })?.status).toBe(
      "success",
    );
  });

  it("honours topCandidates", () => {
    const { session } = setup([makeSkill("alpha"), makeSkill("beta")], { topCandidates: 1 });
    const plan = session.plan({ message: "alpha beta", tools: [] });
    expect(plan.tools.map((t) => t.name)).toEqual(["skill_alpha", ACTIVATE_SKILL_TOOL]);
  });

  it("never offers disable-model-invocation skills or roles, and drops activate_skill when nothing is left", () => {
    const { session } = setup([
      makeSkill("rename", { disableModelInvocation: true }),
      makeSkill("reviewer", { role: true }),
      makeSkill("pdf"),
    ]);
    const plan = session.plan({ message: "rename reviewer pdf", tools: [] });
    expect(plan.candidates.map((c) => c.name)).toEqual(["pdf"]);
    expect(plan.tools.map((t) => t.name)).toEqual(["skill_pdf"]);
    expect(plan.system).toBe("CATALOG: pdf");
  });

  it("does not offer a skill that is already active", () => {
    const { session } = setup([makeSkill("pdf"), makeSkill("docx")]);
    session.activate("pdf", { by: "code" });
    const plan = session.plan({ message: "pdf docx", tools: [] });
    expect(plan.candidates.map((c) => c.name)).toEqual(["docx"]);
    expect(plan.tools.map((t) => t.name)).toEqual(["skill_docx", "end_skill"]);
    expect(plan.system.startsWith("CATALOG: docx")).toBe(true);
  });

  it("keeps the candidates for later steps of the same turn (no message) and emits them once", () => {
    const { session, events } = setup([makeSkill("pdf")]);
    session.plan({ message: "a pdf please", tools: [] });
    session.plan({ message: "a pdf please", tools: [] });
    const later = session.plan({ tools: [] });
    expect(later.candidates.map((c) => c.name)).toEqual(["pdf"]);
    expect(events.events.filter((e) => e.type === "candidates")).toHaveLength(1);
  });

  it("a session reopened from a checkpoint mid-turn keeps its candidates, emits nothing, runs no /name again", () => {
    const skills = [makeSkill("pdf"), makeSkill("deploy")];
    const first = setup(skills, { message: "a pdf please" });
    const checkpoint = first.session.toJSON();
    expect(checkpoint.turn?.id).toBeDefined();
    const later = setup(skills, { state: checkpoint, message: "a pdf please" });
    expect(later.session.plan({ tools: [] }).candidates.map((c) => c.name)).toEqual(["pdf"]);
    expect(later.events.events).toEqual([]);

    const command = setup(skills, { message: "/deploy prod" });
    expect(command.session.state.active.map((a) => a.name)).toEqual(["deploy"]);
    const resumed = setup(skills, { state: command.session.toJSON(), message: "/deploy prod" });
    expect(resumed.session.plan({ tools: [] }).explicit).toBeUndefined();
    expect(resumed.session.state.active.map((a) => [a.name, a.args])).toEqual([["deploy", "prod"]]);
    expect(resumed.events.events).toEqual([]);
    expect(resumed.recorded).toEqual([]);
  });

  it("passes the matcher's ambiguity through", () => {
    const ambiguousMatcher: SessionMatcher = (skills, message) => ({
      ...byName(skills, message),
      ambiguous: true,
    });
    const { session } = setup([makeSkill("pdf"), makeSkill("docx")], { match: ambiguousMatcher });
    expect(session.plan({ message: "pdf or docx", tools: [] }).ambiguous).toBe(true);
  });

  it("skill_<name> descriptions say what, when, and what not for", () => {
    const { session } = setup([
      makeSkill("writer", {
        description: "Writes WeChat articles end to end.",
        whenToUse: "the user asks to write an article or a post",
        exclusions: ["questions about writing technique", "editing an existing article"],
      }),
    ]);
    const [tool] = session.plan({ message: "writer", tools: [] }).tools;
    expect(tool!.description).toContain("Writes WeChat articles end to end.");
    expect(tool!.description).toContain("Use when: the user asks to write an article or a post.");
    expect(tool!.description).toContain(
      "Not for: questions about writing technique; editing an existing article.",
    );
  });
});

describe("activation", () => {
  it("activates from a skill_<name> call, injects the body from the next plan and records use", () => {
    const { session, events, recorded } = setup([makeSkill("pdf", { body: "Use pdfplumber." })]);
    session.plan({ message: "pdf", tools: TOOLS });
    const result = session.callSkillTool({ name: "skill_pdf", input: {} }) as ActivationResult;
    expect(result?.status).toBe("success");
    if (result?.status !== "success") throw new Error("unreachable");
    expect(result.data.name).toBe("pdf");
    expect(result.data.instructions).toContain("Use pdfplumber.");
    expect(result.data.allowedTools).toBeNull();
    expect(result.message).toMatch(/now active/);
    expect(session.state.active).toEqual([
      { name: "pdf", by: "model", at: NOW.toISOString(), policy: { disallowedTools: [] } },
    ]);
    expect(recorded).toEqual(["pdf"]);
    const plan = session.plan({ tools: TOOLS });
    expect(plan.system).toContain('<skill_content name="pdf">\nUse pdfplumber.\n</skill_content>');
    expect(events.events.map((e) => e.type)).toEqual(["candidates", "activated"]);
  });

  it("activates through activate_skill with args", () => {
    const { session } = setup([
      makeSkill("deploy", { argumentHint: "<env>", body: "Deploy to $ARGUMENTS." }),
    ]);
    const result = session.callSkillTool({
      name: ACTIVATE_SKILL_TOOL,
      input: { name: "deploy", args: "staging" },
    });
    expect(result?.status).toBe("success");
    expect(session.state.active[0]).toMatchObject({ name: "deploy", by: "model", args: "staging" });
    expect(session.plan({ tools: [] }).system).toContain("Deploy to staging.");
  });

  it("accepts the raw JSON text of the arguments", () => {
    const { session } = setup([makeSkill("pdf")]);
    expect(session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: '{"name":"pdf"}' })?.status).toBe(
      "success",
    );
  });

  it("returns undefined for tools that are not activation tools", () => {
    const { session } = setup([makeSkill("pdf")]);
    expect(session.callSkillTool({ name: "read_file", input: {} })).toBeUndefined();
    expect(session.isSkillTool("read_file")).toBe(false);
    expect(session.isSkillTool("skill_pdf")).toBe(true);
    expect(session.isSkillTool(ACTIVATE_SKILL_TOOL)).toBe(true);
  });

  it("NOT_FOUND lists what can be activated", () => {
    const { session, events } = setup([
      makeSkill("pdf"),
      makeSkill("secret", { disableModelInvocation: true }),
    ]);
    const error = expectError(
      session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: { name: "pdff" } }),
      "NOT_FOUND",
    );
    expect(error.message).toContain('"pdff"');
    expect(error.message).toContain("pdf");
    expect(error.message).not.toContain("secret");
    expect(events.events.at(-1)).toMatchObject({
      type: "activation-refused",
      skill: "pdff",
      error_type: "NOT_FOUND",
    });
  });

  it("MODEL_INVOCATION_DISABLED tells the model to leave it to the user", () => {
    const { session } = setup([
      makeSkill("bulk-rename", { disableModelInvocation: true, argumentHint: "<pattern>" }),
    ]);
    const error = expectError(
      session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: { name: "bulk-rename" } }),
      "MODEL_INVOCATION_DISABLED",
    );
    expect(error.message).toContain("/bulk-rename <pattern>");
    expect(session.state.active).toEqual([]);
  });

  it("a role cannot be activated by the model", () => {
    const { session } = setup([makeSkill("reviewer", { role: true })]);
    const error = expectError(session.activate("reviewer", { by: "model" }), "MODEL_INVOCATION_DISABLED");
    expect(error.message).toMatch(/role/);
  });

  it("NOT_USER_INVOCABLE for a user asking for a hidden skill; the model may still use it", () => {
    const { session } = setup([makeSkill("internal", { userInvocable: false })]);
    expectError(session.activate("internal", { by: "user" }), "NOT_USER_INVOCABLE");
    expect(session.activate("internal", { by: "model" }).status).toBe("success");
  });

  it("ALREADY_ACTIVE on a repeat, but new arguments update the active skill", () => {
    const { session, recorded } = setup([makeSkill("deploy", { argumentHint: "<env>" })]);
    session.activate("deploy", { by: "model", args: "staging" });
    expectError(session.activate("deploy", { by: "model" }), "ALREADY_ACTIVE");
    expectError(session.activate("deploy", { by: "model", args: "staging" }), "ALREADY_ACTIVE");
    const updated = session.activate("deploy", { by: "user", args: "prod" });
    expect(updated.status).toBe("success");
    expect(session.state.active).toHaveLength(1);
    expect(session.state.active[0]!.args).toBe("prod");
    expect(recorded).toEqual(["deploy", "deploy"]);
  });

  it("INVALID_ARGUMENTS for malformed calls", () => {
    const { session } = setup([makeSkill("pdf")]);
    expectError(session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: {} }), "INVALID_ARGUMENTS");
    expectError(session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: "not json" }), "INVALID_ARGUMENTS");
    expectError(session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: [1, 2] }), "INVALID_ARGUMENTS");
    expectError(
      session.callSkillTool({ name: "skill_pdf", input: { args: { nested: true } } }),
      "INVALID_ARGUMENTS",
    );
    expect(session.state.active).toEqual([]);
  });

  it("one skill per group: the model is refused, the user switches", () => {
    const { session, events } = setup([
      makeSkill("formal-tone", { group: "tone" }),
      makeSkill("casual-tone", { group: "tone" }),
    ]);
    session.activate("formal-tone", { by: "model" });
    const error = expectError(session.activate("casual-tone", { by: "model" }), "GROUP_CONFLICT");
    expect(error.message).toContain('"formal-tone"');
    expect(session.activate("casual-tone", { by: "user" }).status).toBe("success");
    expect(session.state.active.map((a) => a.name)).toEqual(["casual-tone"]);
    expect(events.events.some((e) => e.type === "deactivated" && e.skill === "formal-tone")).toBe(true);
  });

  it("deactivate removes the skill and its restrictions", () => {
    const { session, events } = setup([makeSkill("pdf", { allowedTools: ["read_file"] })]);
    session.activate("pdf");
    expect(session.allowedTools(TOOLS)).toEqual(["read_file"]);
    expect(session.deactivate("pdf")).toBe(true);
    expect(session.deactivate("pdf")).toBe(false);
    expect(session.allowedTools(TOOLS)).toEqual(TOOLS);
    expect(events.events.filter((e) => e.type === "deactivated")).toHaveLength(1);
  });

  it("a sink that throws never breaks the session", () => {
    const { session } = setup([makeSkill("pdf")], {
      events: {
        emit() {
          throw new Error("disk full");
        },
      },
    });
    expect(session.plan({ message: "pdf", tools: [] }).candidates).toHaveLength(1);
    expect(session.activate("pdf").status).toBe("success");
  });
});

describe("explicit invocation", () => {
  it('"/name args" activates by the user, also for disable-model-invocation skills', () => {
    const { session, events } = setup([
      makeSkill("bulk-rename", {
        disableModelInvocation: true,
        argumentHint: "<pattern>",
        body: "Rename $0 files.",
      }),
    ]);
    const plan = session.plan({ message: "/bulk-rename *.jpeg", tools: [] });
    expect(plan.explicit?.status).toBe("success");
    expect(session.state.active[0]).toMatchObject({ name: "bulk-rename", by: "user", args: "*.jpeg" });
    expect(plan.system).toContain("Rename *.jpeg files.");
    expect(plan.candidates).toEqual([]);
    expect(events.events.filter((e) => e.type === "activated")).toHaveLength(1);
    // The next step of the same turn replans the same message: nothing runs twice.
    session.plan({ message: "/bulk-rename *.jpeg", tools: [] });
    expect(events.events.filter((e) => e.type === "activated")).toHaveLength(1);
    expect(session.state.active).toHaveLength(1);
  });

  it("refuses user-invocable: false", () => {
    const { session } = setup([makeSkill("internal", { userInvocable: false })]);
    const plan = session.plan({ message: "/internal now", tools: [] });
    expectError(plan.explicit, "NOT_USER_INVOCABLE");
    expect(session.state.active).toEqual([]);
  });

  it("resolves names case- and width-insensitively and handles Unicode names", () => {
    const { session } = setup([makeSkill("pdf"), makeSkill("技能")], { scope: "session" });
    expect(session.plan({ message: "/PDF report.pdf", tools: [] }).explicit?.status).toBe("success");
    expect(session.plan({ message: "/技能 参数", tools: [] }).explicit?.status).toBe("success");
    expect(session.state.active.map((a) => [a.name, a.args])).toEqual([
      ["pdf", "report.pdf"],
      ["技能", "参数"],
    ]);
  });

  it("a slash that names no skill is an ordinary message", () => {
    const { session } = setup([makeSkill("pdf")]);
    const plan = session.plan({ message: "/usr/bin has a pdf", tools: [] });
    expect(plan.explicit).toBeUndefined();
    expect(session.plan({ message: "/nothing here", tools: [] }).explicit).toBeUndefined();
    expect(plan.candidates.map((c) => c.name)).toEqual(["pdf"]);
  });
});

describe("what an active skill reads", () => {
  it("gets today's date and weekday (seed 001: relative dates)", () => {
    const { session } = setup([makeSkill("report")]);
    const result = session.activate("report");
    if (result.status !== "success") throw new Error("expected success");
    expect(result.data.instructions).toContain("Today is Monday, 2026-11-30 (UTC).");
    expect(session.plan({ tools: [] }).system).toContain("Today is Monday, 2026-11-30 (UTC).");
  });

  it("uses the given time zone for the date", () => {
    const { session } = setup([makeSkill("report")], {
      now: () => new Date("2026-11-30T23:30:00Z"),
      timeZone: "Asia/Shanghai",
    });
    session.activate("report");
    expect(session.plan({ tools: [] }).system).toContain("Today is Tuesday, 2026-12-01 (Asia/Shanghai).");
  });

  it("substitutes arguments, or appends them when the body has no placeholder", () => {
    const { session } = setup([
      makeSkill("greet", {
        arguments: ["who", "lang"],
        body: "Greet $who in $lang; raw: $ARGUMENTS; first: $0.",
      }),
      makeSkill("plain", { body: "No placeholders." }),
    ]);
    session.activate("greet", { by: "user", args: 'Ada "en GB"' });
    session.activate("plain", { by: "user", args: "extra words" });
    const system = session.plan({ tools: [] }).system;
    expect(system).toContain('Greet Ada in en GB; raw: Ada "en GB"; first: Ada.');
    expect(system).toContain("No placeholders.\n\nARGUMENTS: extra words");
  });

  it("lists the skill's resource files inside its block", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillshelf-session-"));
    try {
      await mkdir(path.join(dir, "scripts"));
      await mkdir(path.join(dir, ".git"));
      await writeFile(path.join(dir, "SKILL.md"), "---\nname: pdf\ndescription: x\n---\nbody");
      await writeFile(path.join(dir, "scripts", "extract.py"), "print(1)");
      await writeFile(path.join(dir, "reference.md"), "# ref");
      await writeFile(path.join(dir, ".git", "HEAD"), "x");
      const { session } = setup([makeSkill("pdf", { dir, file: path.join(dir, "SKILL.md") })]);
      const result = session.activate("pdf");
      if (result.status !== "success") throw new Error("expected success");
      expect(result.data.resources).toEqual(["reference.md", "scripts/extract.py"]);
      expect(session.plan({ tools: [] }).system).toContain(
        `<skill_resources dir="${dir}">\nreference.md\nscripts/extract.py\n</skill_resources>\n</skill_content>`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("tool policy in a session", () => {
  const skills = () => [
    makeSkill("reader", { allowedTools: ["read_file", "web_*"] }),
    makeSkill("writer", { allowedTools: ["read_file", "write_file"] }),
    makeSkill("careful", { disallowedTools: ["execute"] }),
    makeSkill("free"),
  ];

  it("a skill without allowed-tools does not restrict", () => {
    const { session } = setup(skills());
    session.activate("free");
    expect(session.plan({ tools: TOOLS }).allowedTools).toEqual(TOOLS);
  });

  it("the allowed tools are the intersection: activating another skill never widens", () => {
    const { session } = setup(skills());
    session.activate("reader");
    expect(session.plan({ tools: TOOLS }).allowedTools).toEqual(["read_file", "web_search"]);
    session.activate("writer");
    const plan = session.plan({ tools: TOOLS });
    expect(plan.allowedTools).toEqual(["read_file"]);
    session.activate("free");
    expect(session.plan({ tools: TOOLS }).allowedTools).toEqual(["read_file"]);
    expect(plan.system).toContain("you may use only these tools: read_file");
  });

  it("disallowed-tools are removed", () => {
    const { session } = setup(skills());
    session.activate("careful");
    expect(session.plan({ tools: TOOLS }).allowedTools).toEqual(["read_file", "write_file", "web_search"]);
  });

  it("activation tools stay available while tools are restricted", () => {
    const { session } = setup([...skills(), makeSkill("other")], { message: "other", tools: TOOLS });
    session.activate("writer");
    const plan = session.plan();
    expect(plan.activeToolNames).toEqual([
      "read_file",
      "write_file",
      "skill_other",
      ACTIVATE_SKILL_TOOL,
      "end_skill",
    ]);
    expect(session.guard("skill_other")).toEqual({ allowed: true });
    expect(session.guard(ACTIVATE_SKILL_TOOL)).toEqual({ allowed: true });
  });

  it("guard blocks a tool the model was not offered, says why, and emits an event", () => {
    const { session, events } = setup(skills());
    session.activate("writer");
    session.plan({ tools: TOOLS });
    expect(session.guard("write_file")).toEqual({ allowed: true });
    const blocked = session.guard("execute");
    expect(blocked.allowed).toBe(false);
    if (blocked.allowed) throw new Error("unreachable");
    expect(blocked.result.error_type).toBe("TOOL_NOT_ALLOWED");
    expect(blocked.result.message).toContain('"execute"');
    expect(blocked.result.message).toContain('"writer"');
    expect(blocked.result.message).toContain("read_file, write_file");
    expect(events.events.at(-1)).toMatchObject({
      type: "tool-blocked",
      tool: "execute",
      active: ["writer"],
      skill: "writer",
    });
  });

  it("guard names a disallowed entry", () => {
    const { session } = setup(skills());
    session.activate("careful");
    const blocked = session.guard("execute");
    if (blocked.allowed) throw new Error("expected a block");
    expect(blocked.result.message).toContain("disallowed-tools");
  });

  it("maps Claude-style names through aliases and reports names that match no tool", () => {
    const { session } = setup(
      [
        makeSkill("git-helper", {
          allowedTools: ["Read", "Bash(git:*)", "Teleport"],
          file: "/s/git-helper/SKILL.md",
        }),
      ],
      { toolAliases: { Bash: "run_shell" } },
    );
    session.activate("git-helper");
    const plan = session.plan({ tools: ["read_file", "run_shell", "write_file"] });
    expect(plan.allowedTools).toEqual(["read_file", "run_shell"]);
    const unknown = plan.diagnostics.filter((d) => d.code === "unknown-tool");
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ severity: "warning", file: "/s/git-helper/SKILL.md" });
    expect(unknown[0]!.message).toContain('"Teleport"');
  });
});

describe("tool-name safety", () => {
  it("maps Unicode and 64-character names to valid, working tool names", () => {
    const long = `a${"-b".repeat(31)}c`; // 64 characters
    expect(long).toHaveLength(64);
    const { session } = setup([makeSkill("技能"), makeSkill(long), makeSkill("ok-name")]);
    const plan = session.plan({ message: `技能 ${long} ok-name`, tools: [] });
    const names = plan.tools.map((t) => t.name);
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(names).toContain("skill_ok-name");
    for (const name of names) expect(session.isSkillTool(name)).toBe(true);
    for (const name of names) expect(session.callSkillTool({ name, input: {} })?.status).toBe("success");
    expect(session.state.active.map((a) => a.name).sort()).toEqual([long, "ok-name", "技能"].sort());
  });
});

describe("state", () => {
  it("round-trips through JSON and resumes the same plan", () => {
    const skills = [
      makeSkill("deploy", { argumentHint: "<env>", body: "Deploy $0.", allowedTools: ["execute"] }),
      makeSkill("pdf"),
    ];
    const first = setup(skills);
    first.session.activate("deploy", { by: "user", args: "prod" });
    const saved = JSON.parse(JSON.stringify(first.session)) as unknown;
    expect(saved).toEqual(first.session.toJSON());
    const resumed = setup(skills, { state: saved as never });
    expect(resumed.session.toJSON()).toEqual(first.session.toJSON());
    expect(resumed.session.plan({ tools: TOOLS })).toEqual(first.session.plan({ tools: TOOLS }));
  });

  it("toJSON is a copy; state is live", () => {
    const { session } = setup([makeSkill("pdf")]);
    const snapshot = session.toJSON();
    session.activate("pdf");
    expect(snapshot.active).toEqual([]);
    expect(session.state.active).toHaveLength(1);
  });

  it("a malformed checkpoint keeps what is well-formed", () => {
    const state = {
      active: [
        { name: "pdf", by: "user", at: "x" },
        { name: 3 },
        null,
        { name: "pdf" },
        { name: "docx", by: "robot" },
      ],
    };
    const { session } = setup([makeSkill("pdf"), makeSkill("docx")], { state: state as never });
    expect(session.toJSON().active).toEqual([
      { name: "pdf", by: "user", at: "x" },
      { name: "docx", by: "code", at: NOW.toISOString() },
    ]);
  });

  it("a skill whose file disappears stays in the state with its pinned limits, and returns with its file", () => {
    const pdf = makeSkill("pdf", { allowedTools: ["read_file"] });
    const { session, source } = setup([pdf]);
    session.activate("pdf");
    source.replace([]);
    expect(session.active()).toEqual([]);
    // Deleting the file must not lift the restriction (the model may be the one that deleted it).
    expect(session.plan({ tools: TOOLS }).allowedTools).toEqual(["read_file"]);
    expect(session.guard("execute").allowed).toBe(false);
    source.replace([pdf]);
    expect(session.plan({ tools: TOOLS }).allowedTools).toEqual(["read_file"]);
  });
});
