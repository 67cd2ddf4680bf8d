import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import type { HistoryItem, MatchResult } from "../types.js";
import { ACTIVATE_SKILL_TOOL } from "./activation-tools.js";
import { sessionFromHistory } from "./from-history.js";
import { createSession, type SessionMatcher } from "./session.js";
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

describe("sessionFromHistory", () => {
  it("round-trips: a live conversation and its replay reach the same state", () => {
    const source = skills();
    const live = createSession({ skills: source, match: byName, now: () => NOW });
    const history: HistoryItem[] = [];

    const say = (text: string) => {
      history.push({ kind: "user", text });
      live.plan({ message: text, tools: ["read_file"] });
    };
    const call = (toolName: string, input: unknown) => {
      const output = live.callActivationTool(toolName, input);
      history.push({ kind: "tool-call", toolName, input, output });
    };

    say("/deploy staging");
    say("please read this pdf");
    call("skill_pdf", {});
    history.push({ kind: "tool-call", toolName: "read_file", input: { path: "a.pdf" }, output: "..." });
    call(ACTIVATE_SKILL_TOOL, { name: "tone" });
    call(ACTIVATE_SKILL_TOOL, { name: "deploy" }); // refused: disable-model-invocation
    call(ACTIVATE_SKILL_TOOL, { name: "nope" }); // refused: NOT_FOUND
    say("/hidden"); // refused: not user-invocable
    say("thanks");

    const replayed = sessionFromHistory(history, { skills: source, now: () => NOW });
    expect(replayed.toJSON()).toEqual(live.toJSON());
    expect(replayed.state.active.map((a) => [a.name, a.by, a.args])).toEqual([
      ["deploy", "user", "staging"],
      ["pdf", "model", undefined],
      ["tone", "model", undefined],
    ]);
  });

  it("replays silently: no events, no usage, for what already happened", () => {
    const events = memoryEventSink();
    const used: string[] = [];
    const history: HistoryItem[] = [
      { kind: "user", text: "/deploy prod" },
      { kind: "tool-call", toolName: "skill_pdf", input: {} },
      { kind: "user", text: "next" },
    ];
    const session = sessionFromHistory(history, {
      skills: skills(),
      events,
      usage: { record: (n) => used.push(n) },
    });
    expect(session.state.active.map((a) => a.name)).toEqual(["deploy", "pdf"]);
    expect(events.events).toEqual([]);
    expect(used).toEqual([]);
  });

  it("skips activation calls whose recorded output was an error (object or JSON text)", () => {
    const session = sessionFromHistory(
      [
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
      { skills: skills() },
    );
    expect(session.state.active.map((a) => a.name)).toEqual(["hidden"]);
  });

  it("ignores tool calls that are not activation tools and malformed inputs", () => {
    const session = sessionFromHistory(
      [
        { kind: "tool-call", toolName: "execute", input: { cmd: "ls" } },
        { kind: "tool-call", toolName: ACTIVATE_SKILL_TOOL, input: 42 },
        { kind: "tool-call", toolName: "skill_unknown", input: {} },
      ],
      { skills: skills() },
    );
    expect(session.state.active).toEqual([]);
  });

  it("leaves a trailing user message to plan(), which handles it live (once)", () => {
    const events = memoryEventSink();
    const history: HistoryItem[] = [{ kind: "user", text: "/deploy prod" }];
    const session = sessionFromHistory(history, { skills: skills(), events, match: byName });
    expect(session.state.active).toEqual([]);
    const plan = session.plan({ message: "/deploy prod", tools: [] });
    expect(plan.explicit?.status).toBe("success");
    expect(events.events.map((e) => e.type)).toEqual(["activated"]);
  });

  it("a user message followed by tool calls was planned at an earlier step: not re-run, not re-counted", () => {
    const events = memoryEventSink();
    const history: HistoryItem[] = [
      { kind: "user", text: "/deploy prod and a pdf" },
      { kind: "tool-call", toolName: "read_file", input: {} },
    ];
    const session = sessionFromHistory(history, { skills: skills(), events, match: byName });
    expect(session.state.active.map((a) => a.name)).toEqual(["deploy"]);
    const plan = session.plan({ message: "/deploy prod and a pdf", tools: [] });
    expect(plan.explicit).toBeUndefined();
    expect(events.events).toEqual([]);
  });

  it("a trailing user message marked planned is replayed silently, and plan() does not count it again", () => {
    const events = memoryEventSink();
    const history: HistoryItem[] = [{ kind: "user", text: "/deploy prod", planned: true }];
    const session = sessionFromHistory(history, { skills: skills(), events, match: byName });
    expect(session.state.active.map((a) => [a.name, a.args])).toEqual([["deploy", "prod"]]);
    session.plan({ message: "/deploy prod", tools: [] });
    session.plan({ message: "/deploy prod", tools: [] });
    expect(events.events).toEqual([]);
  });

  it("stage-1 candidates are still computed for a replayed message", () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "a pdf please" },
      { kind: "tool-call", toolName: "read_file", input: {} },
    ];
    const session = sessionFromHistory(history, { skills: skills(), match: byName });
    const plan = session.plan({ message: "a pdf please", tools: [] });
    expect(plan.candidates.map((c) => c.name)).toEqual(["pdf"]);
  });
});

describe("sessionFromHistory with malformed items from a client", () => {
  it("skips items of the wrong shape instead of throwing", () => {
    const items = [
      null,
      { kind: "tool-call" },
      { kind: "tool-call", toolName: 42, input: {} },
      { kind: "user", text: undefined },
      { kind: "weird" },
      { kind: "tool-call", toolName: "skill_pdf", input: {} },
      { kind: "user", text: "thanks" },
    ] as unknown as HistoryItem[];
    const session = sessionFromHistory(items, { skills: skills(), now: () => NOW });
    expect(session.state.active.map((a) => a.name)).toEqual(["pdf"]);
  });
});
