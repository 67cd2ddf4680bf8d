/**
 * Claude Code's skill fields (argument-hint, context, agent, paths, hooks, effort, model):
 * read into typed SkillMeta fields in both modes, never an `unknown-field` error in strict
 * mode; hooks and effort carried with an `info` saying skillshelf does not apply them.
 */
import { describe, expect, it } from "vitest";
import type { ParseMode } from "../types.js";
import { parseSkill } from "./parse-skill.js";

const at = { path: "/skills/fix-issue/SKILL.md" };
const md = (front: string, body = "Fix it.") =>
  `---\nname: fix-issue\ndescription: Fixes an issue.\n${front}\n---\n${body}\n`;
const MODES: readonly ParseMode[] = ["lenient", "strict"];

describe("Claude Code's fields", () => {
  it("argument-hint in list form (`[issue-number]`) is kept as the text it was written as", () => {
    for (const mode of MODES) {
      expect(parseSkill(md("argument-hint: [issue-number]"), { ...at, mode }).skill?.argumentHint).toBe(
        "[issue-number]",
      );
      expect(parseSkill(md("argument-hint: [pr, priority]"), { ...at, mode }).skill?.argumentHint).toBe(
        "[pr, priority]",
      );
      expect(parseSkill(md('argument-hint: "<file> [mode]"'), { ...at, mode }).skill?.argumentHint).toBe(
        "<file> [mode]",
      );
    }
  });

  it("`[a] [b]` (YAML rejects it) is read as that text when lenient, with `yaml-recovered`", () => {
    const lenient = parseSkill(md("argument-hint: [command or prompt] [name]"), at);
    expect(lenient.skill?.argumentHint).toBe("[command or prompt] [name]");
    expect(lenient.diagnostics.map((d) => [d.code, d.line])).toEqual([["yaml-recovered", 4]]);
    expect(parseSkill(md("argument-hint: [a] [b]"), { ...at, mode: "strict" }).skill).toBeUndefined();
  });

  it("context, agent, paths, hooks, effort and model: typed fields, accepted in strict mode", () => {
    const text = md(
      [
        "context: fork",
        "agent: Explore",
        "paths: src/**/*.ts, {docs,notes}/*.md",
        "model: claude-sonnet-4",
        "effort: High",
        "hooks:",
        "  PreToolUse:",
        "    - matcher: Bash",
        "      hooks:",
        "        - type: command",
        "          command: ./check.sh",
        "          timeout: 30",
      ].join("\n"),
    );
    for (const mode of MODES) {
      const { skill, diagnostics } = parseSkill(text, { ...at, mode });
      expect(skill).toMatchObject({
        context: "fork",
        agent: "Explore",
        paths: ["src/**/*.ts", "{docs,notes}/*.md"],
        model: "claude-sonnet-4",
        effort: "high",
        role: false,
        extra: {},
      });
      // Kept as YAML means it: numbers stay numbers.
      expect(skill?.hooks).toEqual({
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh", timeout: 30 }] }],
      });
      expect(diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
        ["info", "field-not-applied", 8],
        ["info", "field-not-applied", 9],
      ]);
      expect(diagnostics[0]!.message).toContain("`effort`");
      expect(diagnostics[1]!.message).toContain("`hooks`");
    }
  });

  it("paths as a list; values Claude Code does not define are `invalid-field` (an error when strict)", () => {
    expect(parseSkill(md("paths:\n  - 'src/**'\n  - README.md"), at).skill?.paths).toEqual([
      "src/**",
      "README.md",
    ]);
    const odd = md("context: inline\neffort: extreme\nhooks: run.sh");
    const lenient = parseSkill(odd, at);
    expect(lenient.skill).toBeDefined();
    expect(lenient.skill?.context).toBeUndefined();
    expect(lenient.skill?.effort).toBeUndefined();
    expect(lenient.skill?.hooks).toBeUndefined();
    expect(lenient.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual([
      "warning:invalid-field@4",
      "warning:invalid-field@5",
      "warning:invalid-field@6",
    ]);
    expect(parseSkill(odd, { ...at, mode: "strict" }).skill).toBeUndefined();
  });

  it("`agent` without `context: fork` is carried with an info saying it applies only to a fork", () => {
    for (const mode of MODES) {
      const { skill, diagnostics } = parseSkill(md("agent: reviewer"), { ...at, mode });
      expect(skill?.agent).toBe("reviewer");
      expect(diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
        ["info", "field-not-applied", 4],
      ]);
      expect(diagnostics[0]!.message).toContain("`context: fork`");
      expect(parseSkill(md("context: fork\nagent: reviewer"), { ...at, mode }).diagnostics).toEqual([]);
    }
  });

  it("no Claude Code field is an `unknown-field` in strict mode", () => {
    const text = md(
      "argument-hint: [x]\ncontext: fork\nagent: general-purpose\npaths: '*.py'\nhooks: {}\neffort: low\nmodel: m\nwhen_to_use: Use it.\nallowed-tools: Read\ndisable-model-invocation: false\nuser-invocable: true\narguments: a b",
    );
    const { skill, diagnostics } = parseSkill(text, { ...at, mode: "strict" });
    expect(diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    expect(skill?.argumentHint).toBe("[x]");
  });
});
