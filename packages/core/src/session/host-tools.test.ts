/**
 * Activation tools never take a host tool's name: a host tool `skill_pdf` (or `activate_skill`)
 * stays the host's, the skill's tool gets a deterministic alternative name, and every path
 * that reads a tool name back (callSkillTool, isSkillTool, guard, history replay)
 * uses the same resolution.
 */
import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import type { HistoryItem, MatchResult, Skill, TurnPlan } from "../types.js";
import { ACTIVATE_SKILL_TOOL, TOOL_NAME_PATTERN } from "./activation-tools.js";
import { createSession, type SessionMatcher, type SessionOptions } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const byName: SessionMatcher = (skills, message): MatchResult => ({
  candidates: skills
    .filter((s) => message.includes(s.name))
    .map((s) => ({ name: s.name, score: 1, reasons: [] })),
  vetoed: [],
  ambiguous: false,
});

const skills = () => [makeSkill("pdf"), makeSkill("docx"), makeSkill("xlsx")];

function setup(list: Skill[] = skills(), options: Partial<SessionOptions> = {}) {
  const events = memoryEventSink();
  const session = createSession({ skills: fixedSource(list), match: byName, events, ...options });
  return { session, events };
}

const names = (plan: TurnPlan) => plan.tools.map((t) => t.name);
const ALT_PDF = /^skill_pdf_[0-9a-f]{8}$/;

describe("activation tool names vs the host's tools", () => {
  it("a host tool named skill_<x> keeps its name; the skill is offered under another valid name", () => {
    const { session } = setup();
    const plan = session.plan({ message: "pdf docx", tools: ["read_file", "skill_pdf"] });
    const offered = names(plan);
    expect(offered).not.toContain("skill_pdf");
    expect(offered).toContain("skill_docx");
    const alt = offered.find((n) => n.startsWith("skill_pdf"))!;
    expect(alt).toMatch(ALT_PDF);
    expect(alt).toMatch(TOOL_NAME_PATTERN);
    expect(plan.tools.find((t) => t.name === alt)!.description).toContain('"pdf"');
    expect(new Set(plan.activeToolNames).size).toBe(plan.activeToolNames.length);
    expect(plan.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "tool-name-clash",
        severity: "warning",
        file: "/skills/pdf/SKILL.md",
        message: expect.stringContaining(alt),
      }),
    );
  });

  it("the alternative name is deterministic (a call in last week's history still resolves)", () => {
    const a = names(setup().session.plan({ message: "pdf", tools: ["skill_pdf"] }));
    const b = names(setup().session.plan({ message: "pdf", tools: ["skill_pdf", "other"] }));
    expect(a).toEqual(b);
  });

  it("the host's call runs the host tool; the alternative name activates the skill", () => {
    const { session, events } = setup();
    const alt = names(session.plan({ message: "pdf", tools: ["skill_pdf"] })).find((n) => ALT_PDF.test(n))!;
    expect(session.isSkillTool("skill_pdf")).toBe(false);
    expect(session.callSkillTool({ name: "skill_pdf", input: {} })).toBeUndefined();
    expect(session.guard("skill_pdf")).toEqual({ allowed: true });
    expect(session.isSkillTool(alt)).toBe(true);
    expect(session.callSkillTool({ name: alt, input: {} })?.status).toBe("success");
    expect(session.state.active.map((a) => a.name)).toEqual(["pdf"]);
    expect(events.events.filter((e) => e.type === "activated")).toHaveLength(1);
  });

  it("a restricting skill blocks the host's skill_<x> tool like any other host tool", () => {
    const { session } = setup([makeSkill("pdf"), makeSkill("strict", { allowedTools: ["read_file"] })]);
    session.plan({ message: "hi", tools: ["read_file", "skill_pdf"] });
    session.activate("strict");
    expect(session.guard("skill_pdf").allowed).toBe(false);
    expect(session.plan({ tools: ["read_file", "skill_pdf"] }).allowedTools).toEqual(["read_file"]);
  });

  it("a host tool named activate_skill: the generic tool is offered under another name", () => {
    const { session } = setup();
    const plan = session.plan({ message: "pdf", tools: [ACTIVATE_SKILL_TOOL] });
    const generic = plan.tools.find((t) => "name" in (t.inputSchema.properties as object))!;
    expect(generic.name).not.toBe(ACTIVATE_SKILL_TOOL);
    expect(generic.name).toMatch(TOOL_NAME_PATTERN);
    expect(plan.diagnostics.map((d) => d.code)).toContain("tool-name-clash");
    expect(session.callSkillTool({ name: ACTIVATE_SKILL_TOOL, input: { name: "docx" } })).toBeUndefined();
    expect(session.callSkillTool({ name: generic.name, input: { name: "docx" } })?.status).toBe("success");
  });

  it("hosts can declare their tools up front (no plan yet, e.g. a tool call in a rebuilt session)", () => {
    const { session } = setup(skills(), { tools: ["skill_pdf"] });
    expect(session.isSkillTool("skill_pdf")).toBe(false);
    expect(session.isSkillTool("skill_docx")).toBe(true);
  });

  it("an alternative name resolves even in a session that does not know the host's tools", () => {
    const alt = names(setup().session.plan({ message: "pdf", tools: ["skill_pdf"] })).find((n) =>
      ALT_PDF.test(n),
    )!;
    const { session } = setup();
    expect(session.callSkillTool({ name: alt, input: {} })?.status).toBe("success");
  });

  it("its own activation tools echoed back in input.tools are not taken for host tools", () => {
    const { session } = setup();
    expect(names(session.plan({ message: "pdf", tools: ["read_file"] }))).toEqual([
      "skill_pdf",
      ACTIVATE_SKILL_TOOL,
    ]);
    // Some hosts hand the previous step's tool set (ours included) back as "the tools".
    const next = session.plan({ message: "pdf", tools: ["read_file", "skill_pdf"] });
    expect(names(next)).toEqual(["skill_pdf", ACTIVATE_SKILL_TOOL]);
    expect(next.diagnostics).toEqual([]);
    expect(session.callSkillTool({ name: "skill_pdf", input: {} })?.status).toBe("success");
  });

  it("a history replay with the host's tools: a host skill_<x> call is not replayed as an activation", () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "convert it" },
      { kind: "tool-call", toolName: "skill_pdf", input: {}, output: "host result" },
      { kind: "tool-call", toolName: "skill_docx", input: {}, output: { status: "success" } },
    ];
    const known = createSession({ skills: fixedSource(skills()), history, tools: ["skill_pdf"] });
    expect(known.state.active.map((a) => a.name)).toEqual(["docx"]);
  });

  it("a host tool named end_skill keeps its name; the end tool is offered under another", () => {
    const { session } = setup(skills(), { tools: ["end_skill"] });
    session.activate("pdf");
    const plan = session.plan();
    const end = plan.tools.find((t) => t.name.includes("end_skill"))!;
    expect(end.name).not.toBe("end_skill");
    expect(session.isSkillTool("end_skill")).toBe(false);
    expect(session.guard("end_skill")).toEqual({ allowed: true });
    expect(session.callSkillTool({ name: end.name, input: {} })).toMatchObject({ status: "success" });
  });
});
