import { describe, expect, it, vi } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import { prepareDelegation } from "../roles/delegation.js";
import { roleFromSkill } from "../roles/roles.js";
import { currentSession } from "../session/current-session.js";
import { createSession } from "../session/session.js";
import { fixedSource, makeSkill } from "../session/test-utils/skills.js";
import type { Diagnostic, Role } from "../types.js";
import {
  delegationResult,
  hostDelegationSpec,
  isBlockedResult,
  pendingCalls,
  refusesTool,
  reportOnce,
  respondingModel,
  respondToPendingCalls,
  runDelegation,
  runHostTool,
  runSkillTool,
  toolErrorOutput,
} from "./index.js";

const reviewer = (fields = {}): Role =>
  roleFromSkill(makeSkill("reviewer", { role: true, allowedTools: ["read_file"], ...fields }));

describe("runSkillTool", () => {
  const session = () =>
    createSession({
      skills: fixedSource([makeSkill("pdf")]),
      match: () => ({ candidates: [], vetoed: [], ambiguous: false }),
    });

  it("runs a skill tool call", () => {
    expect(runSkillTool(session(), { name: "skill_pdf", input: {} })).toMatchObject({
      status: "success",
      data: { name: "pdf" },
    });
  });

  it("answers a name that is not a skill tool with NOT_FOUND, not undefined", async () => {
    const result = await runSkillTool(session(), { name: "skill_gone", input: {} });
    expect(result).toMatchObject({ status: "error", error_type: "NOT_FOUND" });
    expect(result.message).toContain('"skill_gone"');
  });
});

describe("refusesTool", () => {
  it("is true for a host tool the active skill leaves out, whatever its input, and the guard refuses it", () => {
    const session = createSession({
      skills: fixedSource([makeSkill("notes", { allowedTools: ["read_file", "Bash(git:*)"] })]),
      tools: ["read_file", "send_email", "bash"],
    });
    expect(refusesTool(session, "send_email")).toBe(false);
    session.activate("notes");
    expect(refusesTool(session, "send_email")).toBe(true);
    for (const input of [{}, { to: 5 }, "not an object", null]) {
      expect(session.guard({ name: "send_email", input }).allowed).toBe(false);
    }
    expect(refusesTool(session, "read_file")).toBe(false);
    // Allowed for some inputs: the framework's check of a tool the model is offered stays.
    expect(refusesTool(session, "bash")).toBe(false);
  });
});

describe("runHostTool", () => {
  const strict = () => {
    const s = createSession({
      skills: fixedSource([makeSkill("notes", { allowedTools: ["read_file"] })]),
      tools: ["read_file", "send_email"],
    });
    s.activate("notes");
    return s;
  };

  it("returns core's refusal without running the tool", () => {
    const execute = vi.fn(() => "sent");
    const result = runHostTool(strict(), { name: "send_email", input: { to: "x" } }, execute);
    expect(execute).not.toHaveBeenCalled();
    expect(isBlockedResult(result)).toBe(true);
    expect(result).toMatchObject({ status: "error", error_type: "TOOL_NOT_ALLOWED" });
  });

  it("runs an allowed tool inside the session and returns its value untouched", async () => {
    const session = strict();
    const promise = Promise.resolve("contents");
    let seen: unknown;
    const result = runHostTool(session, { name: "read_file", input: { path: "a.txt" } }, () => {
      seen = currentSession();
      return promise;
    });
    expect(result).toBe(promise);
    expect(seen).toBe(session);
    expect(currentSession()).toBeUndefined();
  });
});

describe("isBlockedResult", () => {
  it("recognises core's refusals by shape, also parsed back from a later request", () => {
    expect(isBlockedResult({ status: "error", error_type: "TOOL_NOT_ALLOWED", message: "no" })).toBe(true);
    expect(
      isBlockedResult(JSON.parse('{"status":"error","error_type":"SKILL_FILES_PROTECTED","message":"no"}')),
    ).toBe(true);
    expect(isBlockedResult({ status: "error", error_type: "TOOL_ERROR", message: "boom" })).toBe(false);
    expect(isBlockedResult("TOOL_NOT_ALLOWED")).toBe(false);
    expect(isBlockedResult(null)).toBe(false);
  });
});

describe("respondingModel", () => {
  const shelfSession = () =>
    createSession({
      skills: fixedSource([makeSkill("notes", { allowedTools: ["read_file"] })]),
      tools: ["read_file", "send_email"],
    });
  const calls = [
    { type: "tool-call", toolCallId: "1", toolName: "send_email", input: '{"to":"x"}' },
    { type: "tool-call", toolCallId: "2", toolName: "skill_notes", input: "{}" },
  ];

  it("hands a generated response's tool calls to the session before the framework runs any", async () => {
    const session = shelfSession();
    const model = respondingModel(
      { doGenerate: async () => ({ content: [{ type: "text", text: "hi" }, ...calls] }) },
      session,
    );
    await model.doGenerate();
    // The host call comes first in the response, yet is judged under the activation after it.
    expect(session.guard({ name: "send_email", input: { to: "x" } }).allowed).toBe(false);
    expect(runSkillTool(session, { id: "2", name: "skill_notes", input: "{}" })).toMatchObject({
      status: "success",
    });
    expect(session.state.active.map((a) => a.name)).toEqual(["notes"]);
  });

  it("calls onJudged once per response, with the response's activation already in the state", async () => {
    const session = shelfSession();
    const seen: unknown[] = [];
    const model = respondingModel({ doGenerate: async () => ({ content: calls }) }, session, {
      onJudged: (judged) => seen.push([judged.map((c) => c.id), session.toJSON().active.map((a) => a.name)]),
    });
    await model.doGenerate();
    expect(seen).toEqual([[["1", "2"], ["notes"]]]);
  });

  it("judges a streamed response once, at its finish part: onJudged is not called again, empty, at the end", async () => {
    const session = shelfSession();
    const judged: unknown[] = [];
    const model = respondingModel(
      {
        doStream: async () => ({
          stream: new ReadableStream({
            start(controller) {
              for (const part of [...calls, { type: "finish" }]) controller.enqueue(part);
              controller.close();
            },
          }),
        }),
      },
      session,
      { onJudged: (c) => judged.push(c.map((call) => call.id)) },
    );
    const { stream } = await model.doStream();
    const reader = (stream as ReadableStream<unknown>).getReader();
    while (!(await reader.read()).done);
    // (A second, empty judgement let Mastra's checkpoint forget the response's calls.)
    expect(judged).toEqual([["1", "2"]]);
  });

  it("judges the input the tool gets: the provider's JSON text parsed, an empty text as {}", async () => {
    const answers = async (input: string) => {
      const session = shelfSession();
      const part = { type: "tool-call", toolCallId: "a", toolName: "skill_notes", input };
      await respondingModel({ doGenerate: async () => ({ content: [part] }) }, session).doGenerate();
      // Run with the input the framework parsed (or the text, when it is not JSON).
      let parsed: unknown = input;
      try {
        parsed = input.trim() === "" ? {} : JSON.parse(input);
      } catch {}
      return runSkillTool(session, { id: "a", name: "skill_notes", input: parsed });
    };
    expect(await answers("  ")).toMatchObject({ status: "success" });
    expect(await answers("[1]")).toMatchObject({
      error_type: "INVALID_ARGUMENTS",
      message: expect.stringContaining("the input must be an object"),
    });
    expect(await answers("not json")).toMatchObject({
      error_type: "INVALID_ARGUMENTS",
      message: expect.stringContaining("the input is not a JSON object"),
    });
  });

  it("holds a stream's tool calls back until the response is complete", async () => {
    const session = shelfSession();
    const parts = [{ type: "text-delta", delta: "hi" }, ...calls, { type: "finish" }];
    const model = respondingModel(
      {
        doStream: async () => ({
          stream: new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        }),
      },
      session,
    );
    const { stream } = await model.doStream();
    const seen: Array<{ type: string; active: number }> = [];
    const reader = (stream as ReadableStream<{ type: string }>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen.push({ type: value.type, active: session.state.active.length });
    }
    expect(seen.map((p) => p.type)).toEqual(["text-delta", "tool-call", "tool-call", "finish"]);
    // Text streams at once; the first tool call reaches the framework only after respond() ran.
    expect(seen[0]!.active).toBe(0);
    expect(seen[1]!.active).toBe(1);
  });
});

describe("hostDelegationSpec", () => {
  it("is named delegate, or skillshelf_delegate when the host has a delegate tool", () => {
    expect(hostDelegationSpec([reviewer()], ["read_file"]).name).toBe("delegate");
    expect(hostDelegationSpec([reviewer()], ["read_file", "delegate"]).name).toBe("skillshelf_delegate");
    expect(hostDelegationSpec([reviewer()], [], { name: "hand_off" }).name).toBe("hand_off");
  });

  it("throws a setup error without roles", () => {
    expect(() => hostDelegationSpec([], ["read_file"])).toThrow(/has no roles/);
  });
});

describe("runDelegation", () => {
  const shelfOver = (roles: Role[]) => {
    const events = memoryEventSink();
    return {
      events,
      shelf: {
        prepareDelegation: (input: unknown, tools: readonly string[]) =>
          prepareDelegation(input, { roles, tools, events }),
      },
    };
  };

  it("runs the prepared sub-agent and shapes its answer", async () => {
    const { shelf, events } = shelfOver([reviewer()]);
    const run = vi.fn(async () => "looks fine");
    const result = await runDelegation(
      shelf,
      { role: "reviewer", task: "Review a.ts" },
      { tools: ["read_file", "shell"], run },
    );
    expect(result).toEqual(delegationResult("reviewer", "looks fine", ["read_file"]));
    expect(run).toHaveBeenCalledWith(
      expect.objectContaining({
        task: "Review a.ts",
        tools: ["read_file"],
        instructions: expect.any(String),
      }),
    );
    expect(events.events.map((e) => e.type)).toEqual(["delegated"]);
  });

  it("returns core's error without running anything for an unknown role or a missing task", async () => {
    const { shelf } = shelfOver([reviewer()]);
    const run = vi.fn(async () => "");
    expect(await runDelegation(shelf, { role: "nobody", task: "x" }, { tools: [], run })).toMatchObject({
      status: "error",
      error_type: "UNKNOWN_ROLE",
    });
    expect(await runDelegation(shelf, { role: "reviewer" }, { tools: [], run })).toMatchObject({
      status: "error",
      error_type: "INVALID_ARGUMENTS",
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("passes the role's tool diagnostics on", async () => {
    const { shelf } = shelfOver([reviewer({ allowedTools: ["read_file", "no_such_tool"] })]);
    const seen: Diagnostic[] = [];
    await runDelegation(
      shelf,
      { role: "reviewer", task: "Review" },
      { tools: ["read_file"], run: async () => "", onDiagnostic: (d) => seen.push(d) },
    );
    expect(seen.map((d) => d.code)).toEqual(["unknown-tool"]);
  });
});

describe("reportOnce", () => {
  const diagnostic = (message: string): Diagnostic => ({
    severity: "warning",
    code: "tool-name-clash",
    message,
    file: "/a/SKILL.md",
    line: 1,
    hint: "rename it",
  });

  it("passes each distinct diagnostic on once", () => {
    const report = vi.fn();
    const once = reportOnce(report);
    once(diagnostic("a"));
    once(diagnostic("a"));
    once(diagnostic("b"));
    expect(report.mock.calls.map(([d]) => d.message)).toEqual(["a", "b"]);
  });

  it("warns on the console by default", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const once = reportOnce();
      once(diagnostic("a"));
      once(diagnostic("a"));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toMatch(/^\[skillshelf\] .*tool-name-clash: a/);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("toolErrorOutput", () => {
  it("is a structured error, so a replay reads the call as failed", () => {
    expect(toolErrorOutput("boom")).toEqual({ status: "error", error_type: "TOOL_ERROR", message: "boom" });
  });
});

describe("respondToPendingCalls", () => {
  const session = () =>
    createSession({
      skills: fixedSource([makeSkill("notes", { allowedTools: ["read_file"] })]),
      tools: ["read_file", "send_email"],
    });

  it("judges the calls still waiting since the last user message as one response: an activation among them applies", () => {
    const history = [
      { kind: "user" as const, text: "take notes" },
      { kind: "tool-call" as const, id: "a", toolName: "activate_skill", input: { name: "notes" } },
      { kind: "tool-call" as const, id: "b", toolName: "send_email", input: {} },
    ];
    expect(pendingCalls(history).map((c) => c.id)).toEqual(["a", "b"]);
    const s = session();
    s.plan();
    expect(s.guard({ id: "b", name: "send_email", input: {} }).allowed).toBe(true);
    respondToPendingCalls(s, history);
    expect(s.guard({ id: "b", name: "send_email", input: {} }).allowed).toBe(false);
  });

  it("leaves out calls with an output (a denial included) and calls before the last user message", () => {
    const history = [
      { kind: "user" as const, text: "first" },
      { kind: "tool-call" as const, id: "old", toolName: "activate_skill", input: { name: "notes" } },
      { kind: "user" as const, text: "second" },
      {
        kind: "tool-call" as const,
        id: "denied",
        toolName: "activate_skill",
        input: { name: "notes" },
        output: toolErrorOutput("execution denied"),
      },
      { kind: "tool-call" as const, id: "b", toolName: "send_email", input: {} },
    ];
    expect(pendingCalls(history).map((c) => c.id)).toEqual(["b"]);
    const s = session();
    s.plan();
    respondToPendingCalls(s, history);
    expect(s.guard({ id: "b", name: "send_email", input: {} }).allowed).toBe(true);
  });
});
