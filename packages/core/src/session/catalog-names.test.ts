/**
 * `activate_skill`'s enum from a catalog's `names`: only usable skills, unless the catalog
 * says its names are all of the skills it was given (the shelf's catalog does).
 */
import { describe, expect, it } from "vitest";
import { ACTIVATE_SKILL_TOOL } from "./activation-tools.js";
import { createSession } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const enumOf = (plan: ReturnType<ReturnType<typeof createSession>["plan"]>) =>
  (
    plan.tools.find((t) => t.name === ACTIVATE_SKILL_TOOL)?.inputSchema.properties as
      | Record<string, { enum: string[] }>
      | undefined
  )?.name?.enum;

describe("a catalog's names in activate_skill's enum", () => {
  const list = [makeSkill("pdf"), makeSkill("docx"), makeSkill("xlsx")];
  const noMatch = () => ({ candidates: [], vetoed: [], ambiguous: false });

  it("a catalog that does not vouch for its names: an unknown name is left out", () => {
    const session = createSession({
      skills: fixedSource(list),
      match: noMatch,
      catalog: () => ({ text: "CATALOG", names: ["pdf", "ghost", "docx"] }),
    });
    expect(enumOf(session.plan({ message: "hi", tools: [] }))).toEqual(["pdf", "docx"]);
  });

  it("a catalog naming only skills it was given: the names as listed", () => {
    const session = createSession({
      skills: fixedSource(list),
      match: noMatch,
      catalog: ({ skills }) => ({
        text: "CATALOG",
        names: skills.slice(1).map((s) => s.name),
        namesOfSkills: true,
      }),
    });
    expect(enumOf(session.plan({ message: "hi", tools: [] }))).toEqual(["docx", "xlsx"]);
  });
});
