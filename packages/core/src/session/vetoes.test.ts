/**
 * A skill an exclusion vetoes for the current message is offered through no path — no
 * `skill_<x>`, not in `activate_skill`'s enum, not in the catalog — and the model's attempt
 * to activate it anyway is refused with EXCLUDED, naming the exclusion. The user's own
 * "/name" still runs it. Ambiguity makes the system text ask the user.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import { createShelf } from "../shelf.js";
import type { MatchResult, TurnPlan } from "../types.js";
import { ACTIVATE_SKILL_TOOL } from "./activation-tools.js";
import { createSession, type SessionMatcher } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const enumOf = (plan: TurnPlan): string[] =>
  (
    plan.tools.find((t) => t.name === ACTIVATE_SKILL_TOOL)?.inputSchema.properties as
      | Record<string, { enum: string[] }>
      | undefined
  )?.name?.enum ?? [];

/** Stage 1 that vetoes "writer" whenever the message says "edit". */
const vetoing: SessionMatcher = (skills, message): MatchResult => {
  const vetoed = message.includes("edit")
    ? [{ name: "writer", exclusion: "editing an article", matched: "edit" }]
    : [];
  const candidates = skills
    .filter((s) => message.includes(s.name) && !vetoed.some((v) => v.name === s.name))
    .map((s) => ({ name: s.name, score: 1, reasons: [] }));
  return { candidates, vetoed, ambiguous: false };
};

function vetoSession() {
  const events = memoryEventSink();
  const seenByCatalog: string[][] = [];
  const session = createSession({
    skills: fixedSource([makeSkill("writer"), makeSkill("proofreader"), makeSkill("other")]),
    match: vetoing,
    catalog: ({ skills }) => {
      seenByCatalog.push(skills.map((s) => s.name));
      return { text: `CATALOG: ${skills.map((s) => s.name).join(", ")}` };
    },
    events,
    message: "writer, please edit my article",
    topCandidates: 0,
  });
  return { session, events, seenByCatalog };
}

describe("a vetoed skill", () => {
  it("is offered through no path", () => {
    const { session, seenByCatalog } = vetoSession();
    const plan = session.plan();
    expect(plan.vetoed.map((v) => v.name)).toEqual(["writer"]);
    expect(plan.tools.map((t) => t.name)).not.toContain("skill_writer");
    expect(enumOf(plan)).toEqual(["proofreader", "other"]);
    expect(seenByCatalog.at(-1)).toEqual(["proofreader", "other"]);
    expect(plan.system).not.toContain("writer,");
    expect(JSON.stringify(plan.tools)).not.toContain('"writer"');
  });

  it("is not offered as a top candidate either", () => {
    const session = createSession({
      skills: fixedSource([makeSkill("writer"), makeSkill("other")]),
      match: (skills, message) => ({
        // A matcher that lists it as a candidate and vetoes it: the veto wins.
        candidates: skills.map((s) => ({ name: s.name, score: 1, reasons: [] })),
        vetoed: message.includes("edit") ? [{ name: "writer", exclusion: "editing", matched: "edit" }] : [],
        ambiguous: false,
      }),
      message: "edit it",
    });
    const plan = session.plan();
    expect(plan.candidates.map((c) => c.name)).toEqual(["other"]);
    expect(plan.tools.map((t) => t.name)).toEqual(["skill_other"]);
  });

  it("an activation attempt through any tool name is refused with EXCLUDED, naming the exclusion", () => {
    const { session, events } = vetoSession();
    for (const call of [
      { name: ACTIVATE_SKILL_TOOL, input: { name: "writer" } },
      { name: "skill_writer", input: {} },
    ]) {
      const result = session.callSkillTool(call);
      expect(result).toMatchObject({ status: "error", error_type: "EXCLUDED" });
      expect(result?.message).toContain('"editing an article"');
    }
    expect(session.activate("writer", { by: "model" })).toMatchObject({ error_type: "EXCLUDED" });
    expect(session.state.active).toEqual([]);
    expect(events.events.filter((e) => e.type === "activation-refused")).toHaveLength(3);
  });

  it("the veto holds for the whole turn, also when the session is reopened from its checkpoint", () => {
    const first = vetoSession().session;
    const reopened = createSession({
      skills: fixedSource([makeSkill("writer"), makeSkill("proofreader"), makeSkill("other")]),
      match: vetoing,
      message: "writer, please edit my article",
      state: first.toJSON(),
    });
    expect(reopened.plan().vetoed.map((v) => v.name)).toEqual(["writer"]);
    expect(reopened.callSkillTool({ name: "activate_skill", input: { name: "writer" } })).toMatchObject({
      error_type: "EXCLUDED",
    });
    // Its own tool is offered through no step: a guess reads what an unregistered tool reads.
    expect(reopened.callSkillTool({ name: "skill_writer", input: {} })).toMatchObject({
      error_type: "TOOL_NOT_OFFERED",
    });
    expect(reopened.state.active).toEqual([]);
  });

  it("the user's /name still runs it", () => {
    const session = createSession({
      skills: fixedSource([makeSkill("writer")]),
      match: vetoing,
      message: "/writer edit the intro",
    });
    expect(session.plan().explicit).toMatchObject({ status: "success" });
    expect(session.state.active.map((a) => a.name)).toEqual(["writer"]);
  });

  it("an active skill a new message vetoes ends, even on a continuation-looking message", () => {
    const session = createSession({
      skills: fixedSource([makeSkill("writer")]),
      match: vetoing,
      state: { active: [{ name: "writer", by: "model", at: "x" }] },
      message: "ok, now edit it",
    });
    expect(session.plan().ended).toEqual([{ name: "writer", why: "new-request" }]);
    // Not re-offered: it is vetoed for this message.
    expect(session.plan().tools.map((t) => t.name)).not.toContain("skill_writer");
  });
});

describe("a vetoed skill on a real shelf", () => {
  it("leaves the catalog, the enum and the skill tools; activate_skill is refused EXCLUDED", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-veto-"));
    try {
      const add = async (name: string, text: string) => {
        await mkdir(path.join(root, ".skillshelf", "skills", name), { recursive: true });
        await writeFile(path.join(root, ".skillshelf", "skills", name, "SKILL.md"), text);
      };
      await add(
        "release-notes",
        "---\nname: release-notes\ndescription: Writes release notes for a version from the git log.\ntriggers: [release notes, changelog]\nexclusions: [internal changelog]\n---\nWrite them.\n",
      );
      await add(
        "pdf-report",
        "---\nname: pdf-report\ndescription: Builds PDF reports from tables.\n---\nBuild it.\n",
      );
      const shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
      try {
        const normal = shelf.session({ message: "hello there" }).plan();
        expect(normal.system).toContain("release-notes");
        const session = shelf.session({ message: "write the internal changelog release notes" });
        const plan = session.plan();
        expect(plan.vetoed).toEqual([
          expect.objectContaining({ name: "release-notes", exclusion: "internal changelog" }),
        ]);
        expect(plan.system).not.toContain("release-notes");
        expect(JSON.stringify(plan.tools)).not.toContain("release-notes");
        const refused = session.callSkillTool({
          name: ACTIVATE_SKILL_TOOL,
          input: { name: "release-notes" },
        });
        expect(refused).toMatchObject({ status: "error", error_type: "EXCLUDED" });
        expect(refused?.message).toContain("internal changelog");
      } finally {
        await shelf.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("ambiguity", () => {
  const ambiguousMatcher: SessionMatcher = (skills) => ({
    candidates: skills.slice(0, 2).map((s, i) => ({ name: s.name, score: 1 - i / 100, reasons: [] })),
    vetoed: [],
    ambiguous: true,
  });

  it("asks the model to ask the user which skill is meant", () => {
    const events = memoryEventSink();
    const session = createSession({
      skills: fixedSource([makeSkill("pdf-report"), makeSkill("pdf-summary")]),
      match: ambiguousMatcher,
      events,
      message: "make a pdf from this table",
    });
    const plan = session.plan();
    expect(plan.ambiguous).toBe(true);
    expect(plan.system).toContain(
      'Skills "pdf-report" and "pdf-summary" fit this request about equally well.',
    );
    expect(plan.system).toMatch(/Ask the user which one they mean/);
    expect(events.events.find((e) => e.type === "candidates")).toMatchObject({ ambiguous: true });
  });

  it("says nothing when fewer than two candidates are left to offer", () => {
    const session = createSession({
      skills: fixedSource([makeSkill("pdf-report"), makeSkill("pdf-summary")]),
      match: ambiguousMatcher,
      message: "make a pdf from this table",
    });
    session.activate("pdf-report");
    const plan = session.plan();
    expect(plan.ambiguous).toBe(false);
    expect(plan.system).not.toContain("equally well");
  });
});
