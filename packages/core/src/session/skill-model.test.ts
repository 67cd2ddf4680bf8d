import { describe, expect, it } from "vitest";
import type { MatchResult } from "../types.js";
import { createSession } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const NO_MATCH = (): MatchResult => ({ candidates: [], vetoed: [], ambiguous: false });

function open(skills = [makeSkill("review", { model: "big-model" }), makeSkill("plain")]) {
  let now = Date.parse("2026-11-30T10:00:00Z");
  return createSession({
    skills: fixedSource(skills),
    match: NO_MATCH,
    message: "hello",
    now: () => {
      now += 1000; // each activation a second after the one before
      return new Date(now);
    },
  });
}

describe("plan.model: the model an active skill asks for", () => {
  it("is unset while no skill that names a model is running", () => {
    const session = open();
    expect(session.plan().model).toBeUndefined();
    session.activate("plain");
    expect(session.plan().model).toBeUndefined();
  });

  it("is the skill's model while it runs, and unset once it ends", () => {
    const session = open();
    session.activate("review");
    expect(session.plan().model).toBe("big-model");
    session.activate("plain");
    expect(session.plan().model).toBe("big-model");
    session.callSkillTool({ name: "end_skill", input: { name: "review" } });
    expect(session.plan().model).toBeUndefined();
  });

  it("follows the skill activated last, and inherit means the host's model", () => {
    const session = open([
      makeSkill("review", { model: "big-model" }),
      makeSkill("draft", { model: "small-model" }),
      makeSkill("follow", { model: "inherit" }),
    ]);
    session.activate("review");
    session.activate("draft");
    expect(session.plan().model).toBe("small-model");
    session.deactivate("draft");
    expect(session.plan().model).toBe("big-model");
    session.activate("follow");
    expect(session.plan().model).toBe("big-model");
  });
});
