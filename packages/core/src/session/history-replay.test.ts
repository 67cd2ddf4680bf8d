/**
 * Opening a session from the conversation (`history`) instead of a checkpoint: what already
 * happened is replayed silently, the latest user message is begun live only when nothing
 * follows it and the state has not planned it.
 */
import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import type { HistoryItem, MatchResult, SessionState, ToolCall } from "../types.js";
import { ACTIVATE_SKILL_TOOL } from "./activation-tools.js";
import { createSession, type SessionMatcher, type SessionOptions } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const byName: SessionMatcher = (skills, message): MatchResult => ({
  candidates: skills
    .filter((s) => message.includes(s.name))
    .map((s) => ({ name: s.name, score: 1, reasons: [] })),
  vetoed: [],
  ambiguous: false,
});

const skills = () =>
  fixedSource([
    makeSkill("pdf"),
    makeSkill("deploy", { argumentHint: "<env>", disableModelInvocation: true }),
    makeSkill("tone", { group: "style" }),
    makeSkill("hidden", { userInvocable: false }),
  ]);
const NOW = new Date("2026-11-30T10:00:00Z");

/**
 * A host that checkpoints: one session per model call, opened from the last state and the
 * conversation, every skill-tool call recorded in the history with its result.
 */
function checkpointingHost(options: Partial<SessionOptions>) {
  const history: HistoryItem[] = [];
  let state: SessionState | undefined;
  let n = 0;
  const open = () =>
    createSession({
      skills: skills(),
      match: byName,
      now: () => NOW,
      ...options,
      history,
      ...(state && { state }),
    });
  return {
    history,
    get state() {
      return state;
    },
    say(text: string) {
      history.push({ kind: "user", text });
      state = open().toJSON();
    },
    call(name: string, input: unknown) {
      const session = open();
      const call: ToolCall = { id: `call-${++n}`, name, input };
      const output = session.callSkillTool(call);
      history.push({ kind: "tool-call", toolName: name, input, output, id: call.id });
      state = session.toJSON();
    },
  };
}

describe("a session opened from history", () => {
  const conversation = (host: ReturnType<typeof checkpointingHost>) => {
    host.say("/deploy staging");
    host.say("please read this pdf");
    host.call("skill_pdf", {});
    host.history.push({ kind: "tool-call", toolName: "read_file", input: { path: "a.pdf" }, output: "..." });
    host.call(ACTIVATE_SKILL_TOOL, { name: "tone" });
    host.call(ACTIVATE_SKILL_TOOL, { name: "deploy" }); // refused: disable-model-invocation
    host.call(ACTIVATE_SKILL_TOOL, { name: "nope" }); // refused: NOT_FOUND
    host.say("/hidden"); // refused: not user-invocable
    host.say("thanks");
  };

  it("round-trips (session scope): the checkpointed conversation and its replay reach the same state", () => {
    const host = checkpointingHost({ scope: "session" });
    conversation(host);
    const replayed = createSession({
      skills: skills(),
      match: byName,
      now: () => NOW,
      scope: "session",
      history: host.history,
    });
    expect(replayed.toJSON()).toEqual(host.state);
    expect(replayed.state.active.map((a) => [a.name, a.by, a.args])).toEqual([
      ["deploy", "user", "staging"],
      ["pdf", "model", undefined],
      ["tone", "model", undefined],
    ]);
  });

  it("round-trips (task scope): a new request ended the command's skill, in the replay too", () => {
    const host = checkpointingHost({});
    conversation(host);
    const replayed = createSession({
      skills: skills(),
      match: byName,
      now: () => NOW,
      history: host.history,
    });
    expect(replayed.toJSON()).toEqual(host.state);
    // "please read this pdf" is not /deploy's task; "thanks" continues pdf and tone.
    expect(replayed.state.active.map((a) => a.name)).toEqual(["pdf", "tone"]);
  });

  it("replays silently: no events, no usage, for what already happened", () => {
    const events = memoryEventSink();
    const used: string[] = [];
    const history: HistoryItem[] = [
      { kind: "user", text: "/deploy prod" },
      { kind: "tool-call", toolName: "skill_pdf", input: {}, output: { status: "success" } },
      { kind: "user", text: "ok, next" },
    ];
    const session = createSession({
      skills: skills(),
      history,
      events,
      usage: { record: (n) => used.push(n) },
    });
    expect(session.state.active.map((a) => a.name)).toEqual(["deploy", "pdf"]);
    // Only the new message is begun live (its candidates); nothing replayed is re-emitted or re-counted.
    expect(events.events.map((e) => e.type)).toEqual(["candidates"]);
    expect(used).toEqual([]);
  });

  it("a call that never produced a result changed nothing", () => {
    const session = createSession({
      skills: skills(),
      history: [
        { kind: "user", text: "hi" },
        { kind: "tool-call", toolName: "skill_pdf", input: {} },
      ],
    });
    expect(session.state.active).toEqual([]);
  });

  it("skips activation calls whose recorded output was an error (object or JSON text)", () => {
    const session = createSession({
      skills: skills(),
      history: [
        {
          kind: "tool-call",
          toolName: "skill_pdf",
          input: {},
          output: { status: "error", error_type: "X", message: "" },
        },
        {
          kind: "tool-call",
          toolName: ACTIVATE_SKILL_TOOL,
          input: { name: "tone" },
          output: '{"status":"error"}',
        },
        {
          kind: "tool-call",
          toolName: ACTIVATE_SKILL_TOOL,
          input: '{"name":"hidden"}',
          output: '{"status":"success"}',
        },
      ],
    });
    expect(session.state.active.map((a) => a.name)).toEqual(["hidden"]);
  });

  it("ignores tool calls that are not skill tools and malformed inputs", () => {
    const session = createSession({
      skills: skills(),
      history: [
        { kind: "tool-call", toolName: "execute", input: { cmd: "ls" }, output: "ok" },
        { kind: "tool-call", toolName: ACTIVATE_SKILL_TOOL, input: 42, output: { status: "success" } },
        { kind: "tool-call", toolName: "skill_unknown", input: {}, output: { status: "success" } },
      ],
    });
    expect(session.state.active).toEqual([]);
  });

  it("replays an end_skill call: the skill is finished, and gone at the next user message", () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "a pdf please" },
      { kind: "tool-call", toolName: "skill_pdf", input: {}, output: { status: "success" } },
      { kind: "tool-call", toolName: "end_skill", input: {}, output: { status: "success" } },
    ];
    const session = createSession({ skills: skills(), match: byName, history });
    expect(session.state.active).toMatchObject([{ name: "pdf", finished: true }]);
    const next = createSession({
      skills: skills(),
      match: byName,
      history: [...history, { kind: "user", text: "hi" }],
    });
    expect(next.state.active).toEqual([]);
  });

  it("begins a trailing user message live when the session is opened (once)", () => {
    const events = memoryEventSink();
    const history: HistoryItem[] = [{ kind: "user", text: "/deploy prod" }];
    const session = createSession({ skills: skills(), history, events, match: byName });
    expect(session.state.active.map((a) => [a.name, a.args])).toEqual([["deploy", "prod"]]);
    expect(session.plan({ tools: [] }).explicit?.status).toBe("success");
    session.plan({ tools: [] });
    expect(events.events.map((e) => e.type)).toEqual(["activated"]);
  });

  it("a user message followed by tool calls was planned at an earlier step: not re-run, not re-counted", () => {
    const events = memoryEventSink();
    const history: HistoryItem[] = [
      { kind: "user", text: "/deploy prod and a pdf" },
      { kind: "tool-call", toolName: "read_file", input: {}, output: "x" },
    ];
    const session = createSession({ skills: skills(), history, events, match: byName });
    expect(session.state.active.map((a) => a.name)).toEqual(["deploy"]);
    const plan = session.plan({ tools: [] });
    expect(plan.explicit).toBeUndefined();
    expect(events.events).toEqual([]);
  });

  it("a trailing user message the state already planned is replayed silently", () => {
    const history: HistoryItem[] = [{ kind: "user", text: "/deploy prod" }];
    const first = createSession({ skills: skills(), history, match: byName });
    const events = memoryEventSink();
    const used: string[] = [];
    const again = createSession({
      skills: skills(),
      history,
      state: first.toJSON(),
      events,
      usage: { record: (n) => used.push(n) },
      match: byName,
    });
    expect(again.state.active.map((a) => [a.name, a.args])).toEqual([["deploy", "prod"]]);
    again.plan({ tools: [] });
    expect(events.events).toEqual([]);
    expect(used).toEqual([]);
  });

  it("the same text typed again is a new turn", () => {
    const events = memoryEventSink();
    const history: HistoryItem[] = [{ kind: "user", text: "yes" }];
    const first = createSession({ skills: skills(), history, match: byName });
    createSession({
      skills: skills(),
      history: [...history, { kind: "user", text: "yes" }],
      state: first.toJSON(),
      events,
      match: byName,
    });
    expect(events.events.map((e) => e.type)).toEqual(["candidates"]);
  });

  it("stage-1 candidates are still computed for a replayed message", () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "a pdf please" },
      { kind: "tool-call", toolName: "read_file", input: {}, output: "x" },
    ];
    const session = createSession({ skills: skills(), match: byName, history });
    expect(session.plan({ tools: [] }).candidates.map((c) => c.name)).toEqual(["pdf"]);
  });
});

describe("history with malformed items from a client", () => {
  it("skips items of the wrong shape instead of throwing", () => {
    const items = [
      null,
      { kind: "tool-call" },
      { kind: "tool-call", toolName: 42, input: {} },
      { kind: "user", text: undefined },
      { kind: "weird" },
      { kind: "tool-call", toolName: "skill_pdf", input: {}, output: { status: "success" } },
      { kind: "user", text: "thanks" },
    ] as unknown as HistoryItem[];
    const session = createSession({ skills: skills(), history: items, now: () => NOW });
    expect(session.state.active.map((a) => a.name)).toEqual(["pdf"]);
  });
});
