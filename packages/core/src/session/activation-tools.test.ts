import { describe, expect, it } from "vitest";
import {
  activateSkillToolSpec,
  createToolNameIndex,
  readActivationInput,
  skillToolDescription,
  skillToolName,
  skillToolSpec,
  TOOL_NAME_PATTERN,
} from "./activation-tools.js";
import { makeSkill } from "./test-utils/skills.js";

describe("skillToolName", () => {
  it("keeps names that already fit", () => {
    expect(skillToolName("pdf")).toBe("skill_pdf");
    expect(skillToolName("code-review_2")).toBe("skill_code-review_2");
  });

  it("maps Unicode, spaces and over-long names to valid names, deterministically", () => {
    const long = "x".repeat(64);
    const cases = ["技能", "写作-助手", "café-notes", "has space", long, `${long}-but-longer`];
    for (const name of cases) {
      const tool = skillToolName(name);
      expect(tool, name).toMatch(TOOL_NAME_PATTERN);
      expect(skillToolName(name)).toBe(tool);
    }
    expect(skillToolName("技能")).toMatch(/^skill_[0-9a-f]{8}$/);
    expect(skillToolName("写作-助手")).toMatch(/^skill_[0-9a-f]{8}$/);
    expect(skillToolName("café-notes")).toMatch(/^skill_cafe-notes_[0-9a-f]{8}$/);
    expect(skillToolName(long)).toHaveLength(64);
    // Names that differ only past the cut still get different tools.
    expect(skillToolName(`${long}a`)).not.toBe(skillToolName(`${long}b`));
    expect(skillToolName("技能")).not.toBe(skillToolName("技巧"));
  });

  it("never produces a framework's own skill tool name (Mastra's skill_search, skill_read)", () => {
    expect(skillToolName("search")).toMatch(/^skill_search_[0-9a-f]{8}$/);
    expect(skillToolName("read")).toMatch(/^skill_read_[0-9a-f]{8}$/);
    expect(skillToolName("search")).toBe(skillToolName("search"));
    expect(skillToolName("searches")).toBe("skill_searches");
  });
});

describe("createToolNameIndex", () => {
  it("maps both ways and resolves collisions deterministically", () => {
    const index = createToolNameIndex([makeSkill("pdf"), makeSkill("技能")]);
    expect(index.skillName("skill_pdf")).toBe("pdf");
    expect(index.skillName(index.toolName("技能"))).toBe("技能");
    expect(index.skillName("skill_nope")).toBeUndefined();
  });

  it("gives two skills that would share a tool name different names", () => {
    // "a b" slugs to "a-b" + hash; a literal skill named like that result would collide.
    const spaced = "a b";
    const literal = skillToolName(spaced).slice("skill_".length);
    const index = createToolNameIndex([makeSkill(spaced), makeSkill(literal)]);
    expect(index.toolName(spaced)).not.toBe(index.toolName(literal));
    expect(index.skillName(index.toolName(spaced))).toBe(spaced);
    expect(index.skillName(index.toolName(literal))).toBe(literal);
    for (const name of [spaced, literal]) expect(index.toolName(name)).toMatch(TOOL_NAME_PATTERN);
  });

  it("gives every skill the same tool name whether the whole list was mapped first or not", () => {
    const hashed = (name: string) => skillToolName(name).slice("skill_".length);
    const names = [
      "pdf",
      "a b",
      hashed("a b"), // a literal skill named like another's hashed form
      "search", // skill_search is reserved
      "deadbeef",
      "0123456789abcdef",
      "x_deadbeef",
      "x_deadbeeg",
      "技能",
      hashed("技能"),
      "release-notes",
    ];
    const skills = names.map((name) => makeSkill(name));
    const mapped = createToolNameIndex(skills);
    mapped.ownerOf("skill_pdf"); // maps the whole list
    for (const name of names) {
      const fresh = createToolNameIndex(skills);
      expect(fresh.toolName(name)).toBe(mapped.toolName(name));
      expect(fresh.skillName(fresh.toolName(name))).toBe(name);
    }
    expect(new Set(names.map((name) => mapped.toolName(name))).size).toBe(names.length);
  });
});

describe("tool specs", () => {
  it("keeps the exclusions even when the description is long", () => {
    const skill = makeSkill("writer", {
      description: "word ".repeat(400),
      exclusions: ["questions about writing technique"],
      allowedTools: ["Read"],
    });
    const description = skillToolDescription(skill);
    expect(description.length).toBeLessThan(1100);
    expect(description).toContain("Not for: questions about writing technique.");
    expect(description).toContain("tools are limited to: Read");
  });

  it("offers an args property only to skills that take arguments", () => {
    const plain = skillToolSpec(makeSkill("plain"));
    expect(plain.inputSchema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    const withHint = skillToolSpec(makeSkill("deploy", { argumentHint: "<env>" }));
    expect(withHint.inputSchema.properties).toEqual({
      args: { type: "string", description: "Arguments for the skill: <env>" },
    });
    const byBody = skillToolSpec(makeSkill("echo", { body: "Say $ARGUMENTS" }));
    expect(Object.keys(byBody.inputSchema.properties as object)).toEqual(["args"]);
  });

  it("activate_skill has an enum of names, and is absent when there is nothing to offer", () => {
    expect(activateSkillToolSpec([])).toBeUndefined();
    const spec = activateSkillToolSpec(["a", "技能"])!;
    expect(spec.name).toBe("activate_skill");
    expect((spec.inputSchema.properties as { name: { enum: string[] } }).name.enum).toEqual(["a", "技能"]);
  });
});

describe("readActivationInput", () => {
  it("reads objects, JSON text and empty input", () => {
    expect(readActivationInput({ name: " pdf ", args: "x" }, true)).toEqual({
      ok: true,
      name: "pdf",
      args: "x",
    });
    expect(readActivationInput('{"name":"pdf"}', true)).toEqual({ ok: true, name: "pdf", args: undefined });
    expect(readActivationInput(undefined, false)).toEqual({ ok: true, args: undefined, values: {} });
    expect(readActivationInput("", false)).toEqual({ ok: true, args: undefined, values: {} });
    expect(readActivationInput({ args: ["a", 2] }, false)).toEqual({
      ok: true,
      args: "a 2",
      values: { args: ["a", 2] },
    });
  });

  it("reads a typed skill's arguments: the whole input of its tool, `arguments` of activate_skill", () => {
    expect(readActivationInput({ time_range: "current_month" }, false)).toEqual({
      ok: true,
      values: { time_range: "current_month" },
    });
    expect(readActivationInput({ name: "q", arguments: { limit: 3 } }, true)).toEqual({
      ok: true,
      name: "q",
      values: { limit: 3 },
    });
    expect(readActivationInput({ name: "q", arguments: '{"limit":3}' }, true)).toMatchObject({
      values: { limit: 3 },
    });
    expect(readActivationInput({ name: "q" }, true)).toEqual({ ok: true, name: "q" });
  });

  it("explains what is wrong", () => {
    expect(readActivationInput({}, true)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"name"'),
    });
    expect(readActivationInput({ name: 3 }, true)).toMatchObject({ ok: false });
    expect(readActivationInput("{oops", true)).toMatchObject({
      ok: false,
      problem: expect.stringContaining("JSON"),
    });
    expect(readActivationInput(42, false)).toMatchObject({ ok: false });
    expect(readActivationInput({ args: { a: 1 } }, false)).toMatchObject({ ok: false });
  });
});

describe("a context: fork skill's tool", () => {
  it("says it runs in a sub-agent and always takes the task as args", () => {
    const spec = skillToolSpec(makeSkill("audit", { description: "Audit the deps.", context: "fork" }));
    expect(spec.description).toMatch(/^Run the "audit" skill in a sub-agent\. Audit the deps\./);
    expect(spec.description).toMatch(/answers with its result; give it the task as `args`\.$/);
    expect(spec.inputSchema).toMatchObject({
      properties: { args: { type: "string", description: expect.stringMatching(/^The sub-agent's task/) } },
    });
    const inline = skillToolSpec(makeSkill("notes", { description: "Take notes." }));
    expect(inline.description).toMatch(/^Activate the "notes" skill\./);
    expect(inline.inputSchema).toMatchObject({ properties: {} });
  });
});
