import { describe, expect, it } from "vitest";
import type { Scope, Skill } from "../types.js";
import { type ResolveEntry, resolveSkills } from "./resolve.js";

function entry(
  name: string,
  scope: Scope,
  file: string,
  rank = 0,
  depth = 1,
  extra: Partial<Skill> = {},
): ResolveEntry {
  const skill = { name, description: "d", scope, file, locked: false, ...extra } as Skill;
  return { skill, rank, depth };
}

/** The note as the plain object it stands for: every key, in order, with its value. */
const plain = (value: object) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe("override notes (texts written when read)", () => {
  const result = resolveSkills(
    [
      entry("a", "project", "/p/a/SKILL.md", 0),
      entry("a", "project", "/p/cat/a/SKILL.md", 0, 2),
      entry("a", "user", "/u1/a/SKILL.md", 1),
      entry("a", "user", "/u2/a/SKILL.md", 2),
      entry("r", "project", "/p/r/SKILL.md", 0, 1, { role: true }),
      entry("r", "user", "/u1/r/SKILL.md", 1),
      entry("l", "project", "/p/l/SKILL.md", 0),
      entry("l", "builtin", "builtin:l", 5, 0, { locked: true }),
      entry("q", "project", "/p/q/SKILL.md", 0),
      entry("q", "project", "/p/cat/q/SKILL.md", 0, 2),
    ],
    { prefer: new Map([["q", "/p/cat/q"]]) },
  );

  it("read, spread, serialise and compare as plain diagnostics, keys in the usual order", () => {
    expect(result.diagnostics.length).toBe(6);
    for (const note of result.diagnostics) {
      expect(Object.keys(note)).toEqual(["severity", "code", "message", "file", "line", "hint"]);
      expect({ ...note }).toEqual(plain(note));
      expect(note).toStrictEqual(plain(note));
      expect(Object.getPrototypeOf(note)).toBe(Object.prototype);
      expect(structuredClone(note)).toEqual(plain(note));
      expect(JSON.stringify(note)).toBe(JSON.stringify({ ...note }));
    }
  });

  it("say what the plain texts said, for each kind of loss", () => {
    const byFile = new Map(result.diagnostics.map((d) => [d.file, plain(d)]));
    expect(byFile.get("/p/cat/a/SKILL.md")).toEqual({
      severity: "warning",
      code: "duplicate-name",
      message:
        "'a' is defined by 2 files in the project scope; /p/a/SKILL.md is used (the first by source folder, then folder depth, then path), /p/cat/a/SKILL.md is ignored.",
      file: "/p/cat/a/SKILL.md",
      line: 1,
      hint: 'Give one of them another `name`, delete the copies you do not want, or pin the one to use with `prefer: { "a": "<path>" }`.',
    });
    expect(byFile.get("/u1/a/SKILL.md")?.message).toBe(
      "user skill 'a' (/u1/a/SKILL.md) is shadowed by the project skill of the same name (/p/a/SKILL.md).",
    );
    expect(byFile.get("/u1/a/SKILL.md")?.hint).toBe(
      "Nothing to do if /p/a/SKILL.md is meant to replace it; otherwise rename one of them.",
    );
    expect(byFile.get("/u2/a/SKILL.md")?.message).toBe(
      "'a' is defined by 2 files in the user scope; /u1/a/SKILL.md comes first there (itself shadowed by /p/a/SKILL.md) (the first by source folder, then folder depth, then path), /u2/a/SKILL.md is ignored.",
    );
    expect(byFile.get("/u1/r/SKILL.md")).toMatchObject({
      severity: "error",
      code: "role-shadowed",
      message:
        "'r' is a role (/p/r/SKILL.md); the ordinary skill /u1/r/SKILL.md cannot replace it and is ignored.",
      hint: "Rename this skill (its `name` and folder); to replace the role itself, add `role: true` to it.",
    });
    expect(byFile.get("/p/l/SKILL.md")).toMatchObject({
      code: "locked",
      message: "'l' is a locked builtin skill; /p/l/SKILL.md cannot override it and is ignored.",
      hint: "Choose another `name` for this skill (and rename its folder to match).",
    });
    expect(byFile.get("/p/q/SKILL.md")?.message).toBe(
      "'q' is defined by 2 files in the project scope; /p/cat/q/SKILL.md is used (pinned by `prefer`), /p/q/SKILL.md is ignored.",
    );
  });

  it("say what they said when made, and take a new text as a plain diagnostic would", () => {
    const note = result.diagnostics[0]!;
    const said = note.message;
    const loss = result.overridden[0] as { by: string };
    expect(() => {
      loss.by = "/elsewhere/SKILL.md";
    }).toThrow(TypeError);
    expect(note.message).toBe(said);
    const copy = { ...note };
    note.message = "rewritten";
    note.hint = "new hint";
    expect(note.message).toBe("rewritten");
    expect(Object.keys(note)).toEqual(["severity", "code", "message", "file", "line", "hint"]);
    expect(copy.message).toBe(said);
  });
});
