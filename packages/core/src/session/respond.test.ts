/**
 * One model response, every call in it: activations and ends take effect first, so every
 * call of the response is judged as if they had already happened — whatever order the
 * framework runs them in.
 */
import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import type { ToolCall } from "../types.js";
import { ACTIVATE_SKILL_TOOL } from "./activation-tools.js";
import { createSession } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const TOOLS = ["read_file", "write_file", "send_email"];

function setup() {
  const events = memoryEventSink();
  const session = createSession({
    skills: fixedSource([
      makeSkill("notes", { allowedTools: ["read_file"] }),
      makeSkill("formal-tone", { group: "tone" }),
      makeSkill("casual-tone", { group: "tone" }),
    ]),
    tools: TOOLS,
    events,
    message: "take notes and write formally",
  });
  return { session, events };
}

const email: ToolCall = { id: "h1", name: "send_email", input: { to: "attacker@example.com" } };
const activation: ToolCall = { id: "a1", name: "skill_notes", input: {} };

describe("respond(): a response's calls before any runs", () => {
  for (const [label, order] of [
    ["host call first", [email, activation]],
    ["activation first", [activation, email]],
  ] as const) {
    it(`[${label}]: the host call is judged under the activation`, () => {
      const { session } = setup();
      session.respond(order);
      // The framework now runs the calls, the host call possibly before the activation.
      const verdict = session.guard(email);
      expect(verdict).toMatchObject({ allowed: false, result: { error_type: "TOOL_NOT_ALLOWED" } });
      expect(session.callSkillTool(activation)).toMatchObject({ status: "success", data: { name: "notes" } });
      expect(session.guard({ id: "h2", name: "read_file", input: { path: "a.md" } })).toEqual({
        allowed: true,
      });
    });
  }

  it("the activation's result is kept by call id: asked again, the same answer, one activation", () => {
    const { session, events } = setup();
    session.respond([activation]);
    const first = session.callSkillTool(activation);
    const again = session.callSkillTool(activation);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ status: "success" });
    expect(events.events.filter((e) => e.type === "activated")).toHaveLength(1);
  });

  it("two skills of one group in one response: the second is GROUP_CONFLICT", () => {
    const { session } = setup();
    const formal: ToolCall = { id: "g1", name: ACTIVATE_SKILL_TOOL, input: { name: "formal-tone" } };
    const casual: ToolCall = { id: "g2", name: ACTIVATE_SKILL_TOOL, input: { name: "casual-tone" } };
    session.respond([formal, casual]);
    // Run in the opposite order by the framework: the answers do not change.
    expect(session.callSkillTool(casual)).toMatchObject({ status: "error", error_type: "GROUP_CONFLICT" });
    expect(session.callSkillTool(formal)).toMatchObject({ status: "success" });
    expect(session.state.active.map((a) => a.name)).toEqual(["formal-tone"]);
  });

  it("host calls in a response change nothing on their own", () => {
    const { session } = setup();
    session.respond([email]);
    expect(session.state.active).toEqual([]);
    expect(session.guard(email)).toEqual({ allowed: true });
  });

  it("the kept results are dropped when a new user message starts a turn", () => {
    const { session } = setup();
    session.respond([activation]);
    session.plan({ message: "/done" });
    // A call id reused in the new turn is a new call, not last turn's answer: judged by this
    // turn's plan, which does not offer the skill's tool.
    expect(session.callSkillTool(activation)).toMatchObject({
      status: "error",
      error_type: "TOOL_NOT_OFFERED",
    });
    expect(session.state.active).toEqual([]);
  });

  it("an activation through a skill's own tool the latest plan did not offer is refused in the words of an unregistered tool", () => {
    const { session, events } = setup();
    const plan = session.plan();
    // The model calls a skill tool it was never offered (it guessed the name).
    const guessed: ToolCall = { id: "x1", name: "skill_formal-tone", input: {} };
    session.respond([guessed, email]);
    expect(plan.tools.map((t) => t.name)).not.toContain("skill_formal-tone");
    expect(session.callSkillTool(guessed)).toMatchObject({
      status: "error",
      error_type: "TOOL_NOT_OFFERED",
      // The words an adapter answers a skill tool it never registered with (the AI SDK, Mastra):
      // the same in every framework, whichever tools the step had registered.
      message:
        "skill_formal-tone is not one of the tools offered to you now, so nothing was activated. Continue with the tools you are offered.",
    });
    // Bad input changes nothing: the tool is refused before its input is read.
    expect(session.callSkillTool({ id: "x2", name: "skill_formal-tone", input: [1] })).toMatchObject({
      error_type: "TOOL_NOT_OFFERED",
    });
    expect(session.state.active).toEqual([]);
    expect(session.guard(email)).toEqual({ allowed: true });
    expect(events.events.filter((e) => e.type === "activated")).toHaveLength(0);
    // The plan lists the fixed tools it did not offer, for adapters to register hidden.
    expect(plan.unoffered?.map((t) => t.name)).toEqual(["end_skill", "read_skill_file"]);
  });
});
