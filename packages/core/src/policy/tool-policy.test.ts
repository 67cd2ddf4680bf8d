import { describe, expect, it } from "vitest";
import { makeSkill } from "../session/test-utils/skills.js";
import { compileToolEntry, createToolPolicy, resolveAllowedTools } from "./tool-policy.js";

const HOST = [
  "read_file",
  "write_file",
  "edit_file",
  "execute",
  "web_search",
  "mcp__github__list_issues",
  "mcp__github__create_issue",
];

describe("compileToolEntry", () => {
  it("matches exact names", () => {
    const test = compileToolEntry("read_file");
    expect(test("read_file")).toBe(true);
    expect(test("read_files")).toBe(false);
  });

  it("matches globs", () => {
    const test = compileToolEntry("mcp__github__list_*");
    expect(HOST.filter(test)).toEqual(["mcp__github__list_issues"]);
    expect(HOST.filter(compileToolEntry("mcp__github__*"))).toEqual([
      "mcp__github__list_issues",
      "mcp__github__create_issue",
    ]);
    expect(HOST.filter(compileToolEntry("*_file"))).toEqual(["read_file", "write_file", "edit_file"]);
    expect(HOST.filter(compileToolEntry("{read,write}_file"))).toEqual(["read_file", "write_file"]);
  });

  it("matches names exactly: case and separators are part of a name", () => {
    // WebSearch reaches web_search through the default aliases, not by loose spelling.
    expect(HOST.filter(compileToolEntry("WebSearch"))).toEqual(["web_search"]);
    expect(HOST.filter(compileToolEntry("web-search"))).toEqual([]);
    expect(HOST.filter(compileToolEntry("Execute"))).toEqual([]);
  });

  it("maps Claude Code names through the default aliases", () => {
    expect(HOST.filter(compileToolEntry("Read"))).toEqual(["read_file"]);
    expect(HOST.filter(compileToolEntry("Edit"))).toEqual(["edit_file"]);
    expect(HOST.filter(compileToolEntry("Bash"))).toEqual(["execute"]);
  });

  it("maps Bash(git:*) through the alias of its base name, or a precise alias of the whole entry", () => {
    // The name only: which of execute's calls it admits is decide(tool, input)'s business.
    expect(HOST.filter(compileToolEntry("Bash(git:*)"))).toEqual(["execute"]);
    const tools = ["git_status", "git_log", "execute"];
    expect(tools.filter(compileToolEntry("Bash(git:*)", { "Bash(git:*)": "git_*" }))).toEqual([
      "git_status",
      "git_log",
    ]);
  });

  it("host aliases replace the default for that key", () => {
    const test = compileToolEntry("Read", { Read: ["fs_read", "fs_stat"] });
    expect(["read_file", "fs_read", "fs_stat"].filter(test)).toEqual(["fs_read", "fs_stat"]);
  });

  it("does not match unrelated tools", () => {
    expect(HOST.filter(compileToolEntry("Teleport"))).toEqual([]);
    expect(HOST.filter(compileToolEntry("read"))).toEqual([]);
  });
});

describe("createToolPolicy", () => {
  it("is unrestricted with no active skills or skills without whitelists", () => {
    expect(createToolPolicy([]).restricted).toBe(false);
    const policy = createToolPolicy([makeSkill("free")]);
    expect(policy.restricted).toBe(false);
    expect(policy.allowedTools(HOST)).toEqual(HOST);
    expect(policy.decide("anything")).toEqual({ allowed: true });
  });

  it("allowed-tools: [] allows nothing", () => {
    const policy = createToolPolicy([makeSkill("quiet", { allowedTools: [] })]);
    expect(policy.allowedTools(HOST)).toEqual([]);
    expect(policy.decide("read_file")).toMatchObject({
      allowed: false,
      skill: "quiet",
      reason: "not-in-allowed-tools",
    });
  });

  it("is the intersection of every whitelist, whatever the order", () => {
    const a = makeSkill("a", { allowedTools: ["Read", "Write", "web_search"] });
    const b = makeSkill("b", { allowedTools: ["read_file", "execute", "WebSearch"] });
    const c = makeSkill("c");
    for (const skills of [
      [a, b],
      [b, a],
      [a, c, b],
    ]) {
      expect(createToolPolicy(skills).allowedTools(HOST)).toEqual(["read_file", "web_search"]);
    }
    // Adding a skill never widens: the set with a, b ⊆ the set with a alone.
    const onlyA = new Set(createToolPolicy([a]).allowedTools(HOST));
    for (const tool of createToolPolicy([a, b]).allowedTools(HOST)) expect(onlyA.has(tool)).toBe(true);
  });

  it("removes disallowed tools, also for skills without a whitelist", () => {
    const policy = createToolPolicy([
      makeSkill("no-shell", { disallowedTools: ["Bash", "mcp__github__create_*"] }),
    ]);
    expect(policy.restricted).toBe(true);
    expect(policy.allowedTools(HOST)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "web_search",
      "mcp__github__list_issues",
    ]);
    expect(policy.decide("execute")).toEqual({
      allowed: false,
      skill: "no-shell",
      reason: "disallowed",
      entries: ["Bash"],
    });
  });

  it("disallowed wins over allowed", () => {
    const policy = createToolPolicy([
      makeSkill("x", { allowedTools: ["*_file"], disallowedTools: ["write_file"] }),
    ]);
    expect(policy.allowedTools(HOST)).toEqual(["read_file", "edit_file"]);
  });

  it("names the skill that rules a tool out", () => {
    const policy = createToolPolicy([
      makeSkill("wide", { allowedTools: ["*"] }),
      makeSkill("narrow", { allowedTools: ["read_file"] }),
    ]);
    expect(policy.decide("execute")).toMatchObject({
      allowed: false,
      skill: "narrow",
      entries: ["read_file"],
    });
  });

  it("reports whitelist entries that match no host tool as unknown-tool warnings", () => {
    const skill = makeSkill("git", {
      allowedTools: ["Read", "Teleport", "Bash(git:*)"],
      file: "/p/git/SKILL.md",
    });
    const diagnostics = createToolPolicy([skill]).unknownTools(["read_file", "write_file"]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'Skill "git" allows "Teleport", which matches none of the host\'s tools, so it grants nothing.',
      'Skill "git" allows "Bash(git:*)", which matches none of the host\'s tools, so it grants nothing.',
    ]);
    expect(diagnostics[1]).toMatchObject({
      code: "unknown-tool",
      severity: "warning",
      file: "/p/git/SKILL.md",
      line: 1,
    });
    expect(diagnostics[1]!.hint).toContain('toolAliases: { "Bash": "<tool name>" }');
    expect(diagnostics[1]!.hint).toContain("read_file, write_file");
  });
});

describe("resolveAllowedTools", () => {
  it("resolves a standalone whitelist against the host's tools", () => {
    expect(resolveAllowedTools(["Read", "Grep"], ["read_file", "grep", "execute"]).tools).toEqual([
      "read_file",
      "grep",
    ]);
    expect(resolveAllowedTools(undefined, ["a", "b"], { disallowed: ["b"] }).tools).toEqual(["a"]);
    expect(resolveAllowedTools(["Nope"], ["a"]).diagnostics).toHaveLength(1);
  });
});
