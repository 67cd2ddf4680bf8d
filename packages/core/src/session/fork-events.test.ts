/**
 * A `context: fork` skill in the event log: its activation is logged when the model starts
 * it, and its end when the sub-agent answers (or fails), as any other skill's end is, so a
 * log read per skill shows the fork's run from start to finish.
 */
import { describe, expect, it } from "vitest";
import { runSkillTool } from "../adapter-kit/tool-calls.js";
import { memoryEventSink } from "../events/memory-sink.js";
import { createSession } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const AUDIT = makeSkill("dep-audit", { context: "fork", allowedTools: ["read_file"] });
const call = { id: "f1", name: "activate_skill", input: { name: "dep-audit", args: "the lockfile" } };

function setup() {
  const events = memoryEventSink();
  const session = createSession({ skills: fixedSource([AUDIT]), events, message: "audit the deps" });
  return { session, events };
}
const skillEvents = (events: ReturnType<typeof memoryEventSink>) =>
  events.events
    .filter((e) => e.type === "activated" || e.type === "deactivated")
    .map((e) => [e.type, (e as { skill: string }).skill]);

describe("a forked skill's run in the event log", () => {
  it("ends when its sub-agent answers", async () => {
    const { session, events } = setup();
    let during: unknown[] = [];
    const result = await runSkillTool(session, call, {
      fork: async () => {
        during = skillEvents(events);
        return "two risky packages";
      },
    });
    expect(result).toMatchObject({ status: "success", data: { forked: true } });
    expect(during).toEqual([["activated", "dep-audit"]]);
    expect(skillEvents(events)).toEqual([
      ["activated", "dep-audit"],
      ["deactivated", "dep-audit"],
    ]);
    expect(events.events.at(-1)).toMatchObject({ type: "deactivated", why: "sub-agent-done" });
  });

  it("ends when its sub-agent fails, and only once", async () => {
    const { session, events } = setup();
    await expect(
      runSkillTool(session, call, {
        fork: async () => {
          throw new Error("model down");
        },
      }),
    ).rejects.toThrow("model down");
    expect(skillEvents(events)).toEqual([
      ["activated", "dep-audit"],
      ["deactivated", "dep-audit"],
    ]);
  });
});
