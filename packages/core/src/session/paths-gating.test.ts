import { describe, expect, it } from "vitest";
import type { MatchResult } from "../types.js";
import { createSession, type SessionMatcher } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

/** Every skill is a candidate, in list order, with the top two tied. */
const everySkill: SessionMatcher = (skills): MatchResult => ({
  candidates: skills.map((s, i) => ({ name: s.name, score: 10 - i, reasons: [] })),
  vetoed: [],
  ambiguous: skills.length > 1,
});

const SQL = makeSkill("sql-fix", { paths: ["**/*.sql"] });
const GENERAL = makeSkill("general-fix");

function plan(message: string, files?: string[], skills = [SQL, GENERAL]) {
  const shared = everySkill(skills, message);
  const session = createSession({
    skills: fixedSource(skills),
    match: () => shared,
    message,
    ...(files && { files }),
  });
  return { plan: session.plan({ tools: ["read_file"] }), shared };
}

const names = (p: { candidates: Array<{ name: string }> }) => p.candidates.map((c) => c.name);

describe("paths: a skill for some files is a candidate only when they are in play", () => {
  it("is a candidate when the message mentions a matching file", () => {
    const { plan: p } = plan("fix the query in db/report.sql");
    expect(names(p)).toEqual(["sql-fix", "general-fix"]);
    expect(p.tools.map((t) => t.name)).toContain("skill_sql-fix");
  });

  it("is not a candidate when no file is mentioned, or none matches", () => {
    for (const message of ["fix the query", "fix the query in src/report.ts"]) {
      const { plan: p } = plan(message);
      expect(names(p)).toEqual(["general-fix"]);
      expect(p.tools.map((t) => t.name)).not.toContain("skill_sql-fix");
    }
  });

  it("is a candidate when the host reports a matching file as touched", () => {
    expect(names(plan("fix the query", ["db/report.sql"]).plan)).toEqual(["sql-fix", "general-fix"]);
    expect(names(plan("fix the query", ["db/report.ts"]).plan)).toEqual(["general-fix"]);
  });

  it("leaves the matcher's shared result as it was", () => {
    const { shared } = plan("fix the query");
    expect(shared.candidates.map((c) => c.name)).toEqual(["sql-fix", "general-fix"]);
    expect(shared.ambiguous).toBe(true);
  });

  it("drops a tie that involved the skill it took out", () => {
    const other = makeSkill("other-fix");
    const { plan: p } = plan("fix the query", undefined, [SQL, GENERAL, other]);
    expect(names(p)).toEqual(["general-fix", "other-fix"]);
    expect(p.ambiguous).toBe(false);
  });

  it("never affects a skill without paths", () => {
    const { plan: p } = plan("fix the query", undefined, [GENERAL, makeSkill("empty", { paths: [] })]);
    expect(names(p)).toEqual(["general-fix", "empty"]);
    expect(p.ambiguous).toBe(true);
  });
});
