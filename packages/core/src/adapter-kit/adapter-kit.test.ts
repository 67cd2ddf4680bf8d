import { describe, expect, it, vi } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import { prepareDelegation } from "../roles/delegation.js";
import { roleFromSkill } from "../roles/roles.js";
import { createSession } from "../session/session.js";
import { fixedSource, makeSkill } from "../session/test-utils/skills.js";
import type { Diagnostic, HistoryItem, Role } from "../types.js";
import {
  delegationResult,
  hostDelegationSpec,
  latestUserMessage,
  reportOnce,
  runActivationTool,
  runDelegation,
  toolErrorOutput,
} from "./index.js";

const reviewer = (fields = {}): Role =>
  roleFromSkill(makeSkill("reviewer", { role: true, allowedTools: ["read_file"], ...fields }));

describe("runActivationTool", () => {
  const session = () =>
    createSession({
      skills: fixedSource([makeSkill("pdf")]),
      match: () => ({ candidates: [], vetoed: [], ambiguous: false }),
    });

  it("runs an activation tool call", () => {
    expect(runActivationTool(session(), "skill_pdf", {})).toMatchObject({
      status: "success",
      data: { name: "pdf" },
    });
  });

  it("answers a name that is not an activation tool with NOT_FOUND, not undefined", () => {
    const result = runActivationTool(session(), "skill_gone", {});
    expect(result).toMatchObject({ status: "error", error_type: "NOT_FOUND" });
    expect(result.message).toContain('"skill_gone"');
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

describe("latestUserMessage", () => {
  const user = (text: string, planned?: boolean): HistoryItem => ({
    kind: "user",
    text,
    ...(planned && { planned }),
  });
  const call: HistoryItem = { kind: "tool-call", toolName: "read_file", input: {} };

  it("is the last user message; planned once something follows it or the host marked it", () => {
    expect(latestUserMessage([user("a"), call, user("b")])).toEqual({ text: "b", planned: false });
    expect(latestUserMessage([user("a"), user("b"), call])).toEqual({ text: "b", planned: true });
    expect(latestUserMessage([user("a"), user("b", true)])).toEqual({ text: "b", planned: true });
  });

  it("is undefined without a user message", () => {
    expect(latestUserMessage([])).toBeUndefined();
    expect(latestUserMessage([call])).toBeUndefined();
  });
});

describe("toolErrorOutput", () => {
  it("is a structured error, so a replay reads the call as failed", () => {
    expect(toolErrorOutput("boom")).toEqual({ status: "error", error_type: "TOOL_ERROR", message: "boom" });
  });
});
