/**
 * plan() never throws into the host: a matcher, catalog or skill source that throws (a bad
 * custom tokenizer, a broken embed, a bug) degrades the plan, with a diagnostic saying so.
 */
import { describe, expect, it } from "vitest";
import type { Skill, SkillSource } from "../types.js";
import { ACTIVATE_SKILL_TOOL } from "./activation-tools.js";
import { createSession, type SessionOptions } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const TOOLS = ["read_file", "execute"];
const boom = () => {
  throw new Error("tokenizer exploded");
};

function session(list: Skill[], options: Partial<SessionOptions>) {
  return createSession({ skills: fixedSource(list), ...options });
}

function enumOf(plan: ReturnType<ReturnType<typeof createSession>["plan"]>): string[] | undefined {
  const generic = plan.tools.find((t) => t.name === ACTIVATE_SKILL_TOOL);
  return (generic?.inputSchema.properties as Record<string, { enum: string[] }> | undefined)?.name?.enum;
}

describe("plan() degrades instead of throwing", () => {
  it("a throwing matcher: no candidates, the catalog as usual, a diagnostic", () => {
    const s = session([makeSkill("pdf"), makeSkill("docx")], {
      match: boom,
      catalog: ({ skills }) => ({ text: `CATALOG ${skills.map((k) => k.name).join(",")}` }),
    });
    const plan = s.plan({ message: "a pdf please", tools: TOOLS });
    expect(plan.candidates).toEqual([]);
    expect(plan.system).toBe("CATALOG pdf,docx");
    expect(enumOf(plan)).toEqual(["pdf", "docx"]);
    expect(plan.allowedTools).toEqual(TOOLS);
    expect(plan.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "plan-fallback",
        severity: "error",
        message: expect.stringContaining("tokenizer exploded"),
      }),
    );
  });

  it("a throwing catalog: a names-only catalog (candidates first), the enum limited to it", () => {
    const s = session([makeSkill("pdf"), makeSkill("docx"), makeSkill("xlsx")], {
      match: (skills, message) => ({
        candidates: skills
          .filter((k) => message.includes(k.name))
          .map((k) => ({ name: k.name, score: 1, reasons: [] })),
        vetoed: [],
        ambiguous: false,
      }),
      catalog: boom,
      topCandidates: 0,
    });
    const plan = s.plan({ message: "xlsx", tools: TOOLS });
    expect(plan.candidates.map((c) => c.name)).toEqual(["xlsx"]);
    expect(plan.system).toMatch(/^Skills you can load[^\n]*\nxlsx, pdf, docx$/);
    expect(enumOf(plan)).toEqual(["xlsx", "pdf", "docx"]);
    expect(plan.diagnostics.map((d) => d.code)).toEqual(["plan-fallback"]);
    // The next step of the turn is still served (and still says what went wrong).
    expect(s.plan({ tools: TOOLS }).diagnostics.map((d) => d.code)).toEqual(["plan-fallback"]);
  });

  it("the names-only catalog stays small on a huge shelf and says how many it left out", () => {
    const list = Array.from({ length: 5_000 }, (_, i) => makeSkill(`skill-number-${i}`));
    const plan = session(list, { catalog: boom }).plan({ message: "hi", tools: [] });
    expect(plan.system.length).toBeLessThan(8_000);
    expect(plan.system).toMatch(/\+\d+ more/);
    expect(enumOf(plan)!.length).toBeLessThan(1_000);
  });

  it("a skill source that throws: an empty plan, tools unrestricted only when no skill is active", () => {
    let broken = false;
    const inner = fixedSource([makeSkill("strict", { allowedTools: ["read_file"] })]);
    const source: SkillSource = {
      skills: () => (broken ? boom() : inner.skills()),
      get: (name) => (broken ? boom() : inner.get(name)),
    };
    const idle = createSession({ skills: source });
    const active = createSession({
      skills: source,
      state: { active: [{ name: "strict", by: "code", at: "x" }] },
    });
    broken = true;
    const open = idle.plan({ message: "hi", tools: TOOLS });
    expect(open).toMatchObject({ system: "", tools: [], candidates: [], allowedTools: TOOLS });
    expect(open.diagnostics.map((d) => d.code)).toEqual(["plan-fallback"]);
    // A skill is active but its whitelist cannot be read: least privilege, no host tools.
    expect(active.plan({ message: "hi", tools: TOOLS }).allowedTools).toEqual([]);
  });
});
