import { describe, expect, it } from "vitest";
import { parseSkill } from "./parse-skill.js";
import { matchesSkillPaths, mentionedPaths } from "./path-globs.js";

describe("mentionedPaths", () => {
  it("finds paths and file names in a message, normalised, once each", () => {
    expect(
      mentionedPaths(
        "Fix the bug in `src/app.ts` (see ./docs/guide.md, and /src/app.ts again); also package.json and C:\\repo\\lib\\x.py.",
      ),
    ).toEqual(["src/app.ts", "docs/guide.md", "package.json", "repo/lib/x.py"]);
  });

  it("skips words, versions, abbreviations and URLs", () => {
    expect(mentionedPaths("e.g. bump to v1.2, read https://example.com/a/b.md, or ask me.")).toEqual([]);
    expect(mentionedPaths("edit .env and Dockerfile")).toEqual([".env"]);
  });

  it("reads a hostile message (long dotted tokens, no paths) in one linear pass", () => {
    const message = `${".".repeat(511)}a `.repeat(2_000) + `${"a.".repeat(255)}1 `.repeat(2_000);
    expect(mentionedPaths(message)).toEqual([]);
  });

  it("takes at most 64 paths from a message", () => {
    const message = Array.from({ length: 500 }, (_, i) => `src/f${i}.ts`).join(" ");
    expect(mentionedPaths(message)).toHaveLength(64);
  });
});

describe("matchesSkillPaths", () => {
  const skill = (paths?: string[]) => ({ paths });

  it("a skill without paths is always a candidate", () => {
    expect(matchesSkillPaths(skill(), [])).toBe(true);
    expect(matchesSkillPaths(skill([]), ["x.md"])).toBe(true);
  });

  it("a skill with paths only when a file matches: globs over the whole path, bare globs at any depth", () => {
    const ts = skill(["src/**/*.ts", "*.py", "Dockerfile"]);
    expect(matchesSkillPaths(ts, [])).toBe(false);
    expect(matchesSkillPaths(ts, ["src/app.ts"])).toBe(true);
    expect(matchesSkillPaths(ts, ["src/deep/er/x.ts"])).toBe(true);
    expect(matchesSkillPaths(ts, ["lib/app.ts"])).toBe(false);
    expect(matchesSkillPaths(ts, ["tools/gen/run.py"])).toBe(true);
    expect(matchesSkillPaths(ts, ["ops/Dockerfile"])).toBe(true);
    expect(matchesSkillPaths(ts, ["README.md", "src/app.ts"])).toBe(true);
  });

  it("end to end: a parsed skill's `paths` against the paths a message mentions", () => {
    const { skill: parsed } = parseSkill(
      "---\nname: ts-style\ndescription: TypeScript style rules.\npaths: src/**/*.ts, {docs,notes}/*.md\n---\nRules.\n",
      { path: "/skills/ts-style/SKILL.md" },
    );
    expect(matchesSkillPaths(parsed!, mentionedPaths("Tidy notes/plan.md please"))).toBe(true);
    expect(matchesSkillPaths(parsed!, mentionedPaths("Tidy README.md please"))).toBe(false);
    expect(matchesSkillPaths(parsed!, mentionedPaths("Tidy the code please"))).toBe(false);
  });
});
