import { describe, expect, it } from "vitest";
import type { Scope, Skill } from "../types.js";
import { type ResolveEntry, resolveSkills } from "./resolve.js";

function entry(name: string, scope: Scope, file: string, rank = 0, depth = 1, locked = false): ResolveEntry {
  const skill = { name, description: "d", scope, file, locked } as Skill;
  return { skill, rank, depth };
}

describe("resolveSkills", () => {
  it("is independent of input order", () => {
    const entries = [
      entry("a", "user", "/u/a/SKILL.md", 2),
      entry("a", "project", "/p2/a/SKILL.md", 1),
      entry("a", "project", "/p1/cat/a/SKILL.md", 0, 2),
      entry("a", "project", "/p1/a/SKILL.md", 0),
      entry("a", "builtin", "builtin:a", 9, 0),
      entry("b", "user", "/u/b/SKILL.md", 2),
    ];
    const forward = resolveSkills(entries);
    const backward = resolveSkills([...entries].reverse());
    expect(forward.skills.map((s) => s.file)).toEqual(["/p1/a/SKILL.md", "/u/b/SKILL.md"]);
    expect(backward.skills.map((s) => s.file)).toEqual(forward.skills.map((s) => s.file));
    expect(backward.overridden).toEqual(forward.overridden);
    expect(forward.overridden.map((o) => [o.file, o.reason, o.by])).toEqual([
      ["/p1/cat/a/SKILL.md", "duplicate-name", "/p1/a/SKILL.md"],
      ["/p2/a/SKILL.md", "duplicate-name", "/p1/a/SKILL.md"],
      ["/u/a/SKILL.md", "shadowed", "/p1/a/SKILL.md"],
      ["builtin:a", "shadowed", "/p1/a/SKILL.md"],
    ]);
  });

  it("two shadowed files of one lower scope: one shadowed, the other a duplicate of it", () => {
    const result = resolveSkills([
      entry("a", "project", "/p/a/SKILL.md", 0),
      entry("a", "user", "/u1/a/SKILL.md", 1),
      entry("a", "user", "/u2/a/SKILL.md", 2),
    ]);
    expect(result.overridden.map((o) => [o.file, o.reason, o.by])).toEqual([
      ["/u1/a/SKILL.md", "shadowed", "/p/a/SKILL.md"],
      ["/u2/a/SKILL.md", "duplicate-name", "/u1/a/SKILL.md"],
    ]);
  });

  it("a locked builtin beats every scope", () => {
    const result = resolveSkills([
      entry("r", "project", "/p/r/SKILL.md", 0),
      entry("r", "builtin", "builtin:r", 5, 0, true),
    ]);
    expect(result.skills.map((s) => s.file)).toEqual(["builtin:r"]);
    expect(result.diagnostics).toMatchObject([
      { code: "locked", file: "/p/r/SKILL.md", severity: "warning" },
    ]);
  });

  it("sorts skills by name", () => {
    const result = resolveSkills([
      entry("b", "user", "/b"),
      entry("a", "user", "/a"),
      entry("C", "user", "/c"),
    ]);
    expect(result.skills.map((s) => s.name)).toEqual(["C", "a", "b"]);
  });
});
