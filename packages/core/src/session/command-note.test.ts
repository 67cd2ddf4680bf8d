/**
 * A refused "/name args" must reach the model: plan.system carries a note for the whole turn
 * (every step that plans the same message), so every adapter shows it without code of its own.
 */
import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import type { HistoryItem, MatchResult, Skill } from "../types.js";
import { createSession, type SessionMatcher, type SessionOptions } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const byName: SessionMatcher = (skills, message): MatchResult => ({
  candidates: skills
    .filter((s) => message.includes(s.name))
    .map((s) => ({ name: s.name, score: 1, reasons: [{ kind: "name" as const, matched: s.name }] })),
  vetoed: [],
  ambiguous: false,
});

function setup(skills: Skill[], options: Partial<SessionOptions> = {}) {
  const events = memoryEventSink();
  const source = fixedSource(skills);
  const session = createSession({ skills: source, match: byName, events, ...options });
  return { session, events, source };
}

const NOTE =
  /<skill_command_refused command="([^"]*)" error_type="([A-Z_]+)">\n([\s\S]*?)\n<\/skill_command_refused>/;

function note(system: string) {
  const m = NOTE.exec(system);
  return m ? { command: m[1]!, errorType: m[2]!, text: m[3]! } : undefined;
}

describe("a refused /name command reaches the model", () => {
  it("NOT_USER_INVOCABLE: the note says what was typed, why, and what to tell the user", () => {
    const { session } = setup([makeSkill("internal", { userInvocable: false }), makeSkill("pdf")]);
    const plan = session.plan({ message: "/internal now", tools: [] });
    expect(plan.explicit).toMatchObject({ status: "error", error_type: "NOT_USER_INVOCABLE" });
    const n = note(plan.system);
    expect(n).toMatchObject({ command: "/internal now", errorType: "NOT_USER_INVOCABLE" });
    expect(n!.text).toMatch(/did not run/);
    expect(n!.text).toMatch(/[Tt]ell the user/);
  });

  it("lasts for the whole turn (same message, later steps, no message) and ends with the next message", () => {
    const { session, events } = setup([makeSkill("internal", { userInvocable: false })]);
    session.plan({ message: "/internal now", tools: [] });
    expect(note(session.plan({ message: "/internal now", tools: [] }).system)).toBeDefined();
    expect(note(session.plan({ tools: [] }).system)).toBeDefined();
    expect(events.events.filter((e) => e.type === "activation-refused")).toHaveLength(1);
    expect(note(session.plan({ message: "thanks", tools: [] }).system)).toBeUndefined();
  });

  it("a session reopened mid-turn from its checkpoint still carries the note, emitting nothing", () => {
    const skills = [makeSkill("internal", { userInvocable: false })];
    const first = setup(skills, { message: "/internal now" });
    const { session, events } = setup(skills, { message: "/internal now", state: first.session.toJSON() });
    const plan = session.plan({ tools: [] });
    expect(plan.explicit).toBeUndefined();
    expect(note(plan.system)?.errorType).toBe("NOT_USER_INVOCABLE");
    expect(events.events).toEqual([]);
  });

  it("a history replay: a refused command followed by a tool call keeps its note for its turn", () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "/internal now" },
      { kind: "tool-call", toolName: "read_file", input: {}, output: "x" },
    ];
    const { session, events } = setup([makeSkill("internal", { userInvocable: false })], { history });
    expect(note(session.plan({ tools: [] }).system)?.errorType).toBe("NOT_USER_INVOCABLE");
    expect(events.events).toEqual([]);
  });

  it("a typo of a skill name is a refused command (NOT_FOUND) that names the closest skills", () => {
    const { session, events } = setup([
      makeSkill("pdf"),
      makeSkill("pdf-tools"),
      makeSkill("docx"),
      makeSkill("secret-pdf", { userInvocable: false }),
    ]);
    const plan = session.plan({ message: "/pdff report.pdf", tools: [] });
    expect(plan.explicit).toMatchObject({ status: "error", error_type: "NOT_FOUND" });
    const n = note(plan.system)!;
    expect(n).toMatchObject({ command: "/pdff report.pdf", errorType: "NOT_FOUND" });
    expect(n.text).toContain("/pdf");
    expect(n.text).not.toContain("/docx");
    expect(n.text).not.toContain("secret-pdf"); // the user cannot run it
    expect(events.events).toContainEqual(
      expect.objectContaining({
        type: "activation-refused",
        skill: "pdff",
        by: "user",
        error_type: "NOT_FOUND",
      }),
    );
    // The rest of the message is still matched: the model may still be offered the skill.
    expect(plan.candidates.map((c) => c.name)).toContain("pdf");
  });

  it("typos: transpositions, missing hyphens and prefixes are close; unrelated words are not", () => {
    const { session } = setup([makeSkill("review-pr"), makeSkill("bulk-rename"), makeSkill("deploy")]);
    expect(note(session.plan({ message: "/reveiw-pr 12", tools: [] }).system)?.text).toContain("/review-pr");
    expect(note(session.plan({ message: "/bulkrename x", tools: [] }).system)?.text).toContain(
      "/bulk-rename",
    );
    expect(note(session.plan({ message: "/deploy-prod", tools: [] }).system)?.text).toContain("/deploy");
    const plain = session.plan({ message: "/weather in Paris", tools: [] });
    expect(plain.explicit).toBeUndefined();
    expect(note(plain.system)).toBeUndefined();
  });

  it("a command that ran adds no note, and neither does an ordinary message", () => {
    const { session } = setup([makeSkill("pdf")]);
    expect(note(session.plan({ message: "/pdf a.pdf", tools: [] }).system)).toBeUndefined();
    expect(note(session.plan({ message: "a pdf please", tools: [] }).system)).toBeUndefined();
  });

  it("escapes what the user typed and keeps a long command short", () => {
    const { session } = setup([makeSkill("internal", { userInvocable: false })]);
    const plan = session.plan({ message: `/internal "<b>" ${"x".repeat(500)}`, tools: [] });
    const n = note(plan.system)!;
    expect(n.command).toContain("&quot;&lt;b>&quot;");
    expect(n.command.length).toBeLessThan(220);
  });

  it("goes after the catalog and the active skills (a stable prefix stays cacheable)", () => {
    const { session } = setup([makeSkill("internal", { userInvocable: false }), makeSkill("pdf")], {
      catalog: () => ({ text: "CATALOG" }),
    });
    const plan = session.plan({ message: "/internal", tools: [] });
    expect(plan.system.startsWith("CATALOG\n\n<skill_command_refused")).toBe(true);
  });
});

describe("role skills in the main agent", () => {
  const roleSkills = () => [
    makeSkill("reviewer", { role: true, userInvocable: false, description: "Reviews code." }),
    makeSkill("pdf"),
  ];

  it("are never candidates, catalog entries or activate_skill names", () => {
    const { session } = setup(roleSkills(), {
      catalog: ({ skills }) => ({ text: skills.map((s) => s.name).join(",") }),
    });
    const plan = session.plan({ message: "reviewer pdf", tools: [] });
    expect(plan.candidates.map((c) => c.name)).toEqual(["pdf"]);
    expect(plan.system).toBe("pdf");
    expect(JSON.stringify(plan.tools)).not.toContain("reviewer");
  });

  it('"/reviewer" is refused with a note that points to delegation', () => {
    const { session } = setup(roleSkills());
    const plan = session.plan({ message: "/reviewer check src/a.ts", tools: [] });
    expect(plan.explicit).toMatchObject({ status: "error", error_type: "NOT_USER_INVOCABLE" });
    expect(session.state.active).toEqual([]);
    const n = note(plan.system)!;
    expect(n.text).toMatch(/sub-agent/);
    expect(n.text).toMatch(/delegat/);
    expect(n.text).toContain("check src/a.ts");
  });

  it("a role that opts in with user-invocable: true can be loaded by the user, never by the model", () => {
    const { session } = setup([makeSkill("reviewer", { role: true, userInvocable: true }), makeSkill("pdf")]);
    expect(session.activate("reviewer", { by: "model" })).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
    const plan = session.plan({ message: "/reviewer", tools: [] });
    expect(plan.explicit?.status).toBe("success");
    expect(session.state.active.map((a) => a.name)).toEqual(["reviewer"]);
  });

  it("a typo never suggests a role the user cannot run", () => {
    const { session } = setup(roleSkills());
    const plan = session.plan({ message: "/reviewr", tools: [] });
    expect(plan.explicit).toBeUndefined();
    expect(note(plan.system)).toBeUndefined();
  });
});
