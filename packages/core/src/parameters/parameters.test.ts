import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSkills } from "../load/load-skills.js";
import type { Skill } from "../types.js";
import { skillParameters, validateArguments } from "./index.js";

const MEMBER_SCHEMA = {
  type: "object",
  properties: {
    time_range: {
      type: "string",
      enum: ["current_month", "last_month", "last_3_months", "last_7_days", "custom"],
      description: "Time range; custom needs start_date and end_date",
    },
    start_date: { type: "string", format: "date", description: "YYYY-MM-DD" },
    limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
  },
  required: ["time_range"],
  additionalProperties: false,
};

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function skillIn(
  files: Record<string, string>,
  name = "member-query",
): Promise<{ skill: Skill; root: string }> {
  const root = mkdtempSync(path.join(tmpdir(), "skillshelf-params-"));
  roots.push(root);
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  const loaded = await loadSkills({ projectDirs: [root], userDirs: [], root });
  const skill = loaded.skills.find((s) => s.name === name);
  if (!skill) throw new Error(`not loaded: ${JSON.stringify(loaded.diagnostics)}`);
  return { skill, root };
}

const SKILL_MD =
  "---\nname: member-query\ndescription: Query member spending, top members by time range.\n---\nList the top $limit members for $time_range.\n";

describe("a skill's parameters", () => {
  it("come from schema.json beside SKILL.md: defaults filled in, valid arguments unchanged", async () => {
    const { skill } = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": JSON.stringify(MEMBER_SCHEMA, null, 2),
    });
    const report = skillParameters(skill);
    expect(report.broken).toBe(false);
    expect(report.parameters?.source).toBe("schema.json");
    expect(validateArguments(skill, { time_range: "current_month" })).toEqual({
      ok: true,
      values: { time_range: "current_month", limit: 10 },
    });
    expect(validateArguments(skill, '{"time_range":"last_month","limit":3}')).toEqual({
      ok: true,
      values: { time_range: "last_month", limit: 3 },
    });
  });

  it("refuse invalid arguments with every field named, what was wrong and what to send", async () => {
    const { skill } = await skillIn({ "SKILL.md": SKILL_MD, "schema.json": JSON.stringify(MEMBER_SCHEMA) });
    const check = validateArguments(skill, {
      time_range: "this month",
      start_date: "June 3rd",
      limit: 0,
      extra: 1,
    });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    const { result } = check;
    expect(result.status).toBe("error");
    expect(result.error_type).toBe("INVALID_ARGUMENTS");
    const byField = Object.fromEntries(result.errors.map((e) => [e.field, e]));
    expect(byField.time_range?.problem).toContain('"this month"');
    expect(byField.time_range?.expected).toContain('"current_month"');
    expect(byField.time_range?.expected).toContain('"last_3_months"');
    expect(byField.start_date?.expected).toContain("YYYY-MM-DD");
    expect(byField.limit?.expected).toContain(">= 1");
    expect(byField.extra?.problem).toContain("no such argument");
    expect(result.message).toContain("Call the tool again");
    const missing = validateArguments(skill, {});
    expect(missing.ok === false && missing.result.errors).toEqual([
      {
        field: "time_range",
        problem: "it is missing",
        expected:
          'a value for "time_range": one of "current_month", "last_month", "last_3_months", "last_7_days", "custom" (Time range; custom needs start_date and end_date)',
      },
    ]);
  });

  it("come from the `parameters:` frontmatter field", async () => {
    const md =
      "---\nname: member-query\ndescription: Query member spending.\nparameters:\n  type: object\n  properties:\n    time_range:\n      type: string\n      enum: [current_month, last_3_months]\n  required: [time_range]\n---\nBody $time_range\n";
    const { skill } = await skillIn({ "SKILL.md": md });
    expect(skill.parameters).toMatchObject({ type: "object", required: ["time_range"] });
    expect(skillParameters(skill).parameters?.source).toBe("frontmatter");
    expect(validateArguments(skill, { time_range: "last_3_months" }).ok).toBe(true);
    expect(validateArguments(skill, { time_range: "yesterday" }).ok).toBe(false);
  });

  it("with both sources, schema.json wins and a located warning says the field is ignored", async () => {
    const md =
      "---\nname: member-query\ndescription: Query member spending.\nparameters:\n  type: object\n  properties: {}\n---\nBody\n";
    const { skill } = await skillIn({ "SKILL.md": md, "schema.json": JSON.stringify(MEMBER_SCHEMA) });
    const report = skillParameters(skill);
    expect(report.parameters?.source).toBe("schema.json");
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "parameters-conflict",
        file: skill.file,
        line: 4,
      }),
    ]);
  });

  it("skills without parameters accept any object unchanged", async () => {
    const { skill } = await skillIn({ "SKILL.md": SKILL_MD });
    expect(skillParameters(skill)).toEqual({ broken: false, diagnostics: [] });
    expect(validateArguments(skill, { anything: [1] })).toEqual({ ok: true, values: { anything: [1] } });
  });
});

describe("a broken or hostile parameter schema", () => {
  const schemaWith = (extra: Record<string, unknown>) =>
    JSON.stringify({ ...MEMBER_SCHEMA, ...extra }, null, 2);

  it("refuses a remote $ref without fetching it, located at its line in schema.json", async () => {
    const text = schemaWith({
      properties: { time_range: { $ref: "https://example.invalid/time-range.json" } },
    });
    const { skill } = await skillIn({ "SKILL.md": SKILL_MD, "schema.json": text });
    const report = skillParameters(skill);
    expect(report.broken).toBe(true);
    const line = text.split("\n").findIndex((l) => l.includes("$ref")) + 1;
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "invalid-parameters",
        file: path.join(skill.dir!, "schema.json"),
        line,
        message: expect.stringContaining("only local references"),
      }),
    ]);
    const check = validateArguments(skill, { time_range: "current_month" });
    expect(check.ok).toBe(false);
  });

  it("refuses a relative file $ref and an unresolvable local one", async () => {
    const relative = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": schemaWith({ properties: { a: { $ref: "../../secret.json" } } }),
    });
    expect(skillParameters(relative.skill).diagnostics[0]?.message).toContain("points outside this schema");
    const missing = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": schemaWith({ properties: { a: { $ref: "#/definitions/nowhere" } } }),
    });
    const report = skillParameters(missing.skill);
    expect(report.broken).toBe(true);
    expect(report.diagnostics[0]?.message).toContain("can't resolve reference");
  });

  it("accepts local $refs into definitions", async () => {
    const { skill } = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": JSON.stringify({
        type: "object",
        definitions: { range: { type: "string", enum: ["current_month", "last_month"] } },
        properties: { time_range: { $ref: "#/definitions/range" } },
        required: ["time_range"],
      }),
    });
    expect(validateArguments(skill, { time_range: "last_month" }).ok).toBe(true);
    const bad = validateArguments(skill, { time_range: "last_year" });
    expect(bad.ok === false && bad.result.errors[0]?.expected).toContain('"current_month"');
  });

  it("locates a JSON syntax error and a schema that is not JSON Schema", async () => {
    const broken = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": '{\n  "type": "object",\n  "properties": {,}\n}\n',
    });
    expect(skillParameters(broken.skill).diagnostics[0]).toMatchObject({
      code: "invalid-parameters",
      line: 3,
    });
    const wrong = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": '{\n  "type": "object",\n  "properties": {\n    "a": { "type": "strin" }\n  }\n}\n',
    });
    const d = skillParameters(wrong.skill).diagnostics[0];
    expect(d).toMatchObject({ code: "invalid-parameters", line: 4 });
    expect(d?.message).toContain("not a valid JSON Schema");
  });

  it("locates a frontmatter schema problem at its line in SKILL.md", async () => {
    const md =
      "---\nname: member-query\ndescription: Query member spending.\nparameters:\n  type: object\n  properties:\n    a:\n      $ref: http://example.invalid/a.json\n---\nBody\n";
    const { skill } = await skillIn({ "SKILL.md": md });
    expect(skillParameters(skill).diagnostics[0]).toMatchObject({
      file: skill.file,
      line: 8,
      code: "invalid-parameters",
    });
  });

  it("refuses a root that is not an object schema, an oversized, a too-deep and a linked schema.json", async () => {
    const notObject = await skillIn({ "SKILL.md": SKILL_MD, "schema.json": '{"type": "string"}' });
    expect(skillParameters(notObject.skill).diagnostics[0]?.message).toContain('"type": "object"');

    const big = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": JSON.stringify({ type: "object", description: "x".repeat(70_000) }),
    });
    expect(skillParameters(big.skill).diagnostics[0]?.message).toContain("at most 65536");

    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) deep = { type: "object", properties: { a: deep } };
    const tooDeep = await skillIn({ "SKILL.md": SKILL_MD, "schema.json": JSON.stringify(deep) });
    expect(skillParameters(tooDeep.skill).diagnostics[0]?.message).toContain("deeper than");

    const target = mkdtempSync(path.join(tmpdir(), "skillshelf-params-target-"));
    roots.push(target);
    writeFileSync(path.join(target, "schema.json"), JSON.stringify(MEMBER_SCHEMA));
    const linked = await skillIn({ "SKILL.md": SKILL_MD });
    symlinkSync(path.join(target, "schema.json"), path.join(linked.skill.dir!, "schema.json"));
    const relinked = await loadSkills({ projectDirs: [linked.root], userDirs: [], root: linked.root });
    const skill = relinked.skills.find((s) => s.name === "member-query")!;
    expect(skillParameters(skill).broken).toBe(true);
    expect(skillParameters(skill).diagnostics[0]?.message).toContain("symbolic link");
  });

  it("checks `pattern` on a linear-time engine: a catastrophic pattern does not hang on a long argument", async () => {
    const { skill } = await skillIn({
      "SKILL.md": SKILL_MD,
      "schema.json": JSON.stringify({
        type: "object",
        properties: { q: { type: "string", pattern: "^(a+)+$" } },
      }),
    });
    const check = validateArguments(skill, { q: `${"a".repeat(3_000)}!` });
    expect(check.ok).toBe(false);
    expect(validateArguments(skill, { q: "aaa" }).ok).toBe(true);
  });

  it("refuses arguments that are not an object, or too large", async () => {
    const { skill } = await skillIn({ "SKILL.md": SKILL_MD, "schema.json": JSON.stringify(MEMBER_SCHEMA) });
    expect(validateArguments(skill, "not json").ok).toBe(false);
    expect(validateArguments(skill, [1, 2]).ok).toBe(false);
    const huge = validateArguments(skill, { time_range: "custom", note: "x".repeat(5_000) });
    expect(huge.ok === false && huge.result.errors[0]?.problem).toContain("characters of JSON");
  });
});
