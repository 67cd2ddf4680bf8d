/**
 * A user-only (`disable-model-invocation`) forked skill runs only for the user's "/name":
 * the model is asked to start its sub-agent, and must not turn that one permission into
 * runs of its own — other arguments than the user typed, or a second run in the same turn
 * (also when a stateless host rebuilds the session from the history). And a fork started in
 * the same response as an activation is still bounded by it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { HistoryItem, ToolCall } from "../types.js";
import { forkResult } from "./fork.js";

const TOOLS = ["read_file", "send_email", "git_log"];
const skill = (name: string, fields: string, body = `Do ${name}.`) =>
  `---\nname: ${name}\ndescription: The ${name} skill does ${name} work.\n${fields}\n---\n${body}\n`;
const SKILLS: Record<string, string> = {
  // User-only, in a sub-agent: deploys where the user says.
  ship: skill(
    "ship",
    "context: fork\ndisable-model-invocation: true\nallowed-tools: read_file send_email",
    "Deploy to $ARGUMENTS.",
  ),
  // User-only with typed arguments.
  promote: skill(
    "promote",
    "context: fork\ndisable-model-invocation: true\nparameters:\n  type: object\n  properties:\n    target:\n      type: string\n  required: [target]",
    "Promote to $target.",
  ),
  // Any model may start it.
  summarise: skill("summarise", "context: fork\ntriggers: [summarise it]"),
  reader: skill("reader", "triggers: [read it]\nallowed-tools: read_file"),
};

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-fork-explicit-"));
  for (const [name, text] of Object.entries(SKILLS)) {
    await mkdir(path.join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(path.join(root, ".skillshelf", "skills", name, "SKILL.md"), text);
  }
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

describe("a user-only forked skill started by the model for the user's /name", () => {
  it("runs on the user's arguments, whatever arguments the model sends", () => {
    const session = shelf.session({ message: "/ship staging", tools: TOOLS });
    session.plan();
    for (const [id, input] of [
      ["a", { args: "production" }],
      ["b", { args: "" }],
      ["c", { args: "staging; and production" }],
    ] as const) {
      const fresh = shelf.session({ message: "/ship staging", tools: TOOLS });
      fresh.plan();
      const call: ToolCall = { id, name: "skill_ship", input };
      fresh.respond([call]);
      const fork = fresh.fork(call);
      expect(fork?.task, JSON.stringify(input)).toBe("staging");
      expect(fork?.instructions).toContain("Deploy to staging.");
      expect(fork?.instructions).not.toContain("production");
    }
    // Through activate_skill too.
    const generic: ToolCall = {
      id: "g",
      name: "activate_skill",
      input: { name: "ship", args: "production" },
    };
    session.respond([generic]);
    expect(session.fork(generic)?.task).toBe("staging");
  });

  it("typed: on the user's values, not the model's", () => {
    const session = shelf.session({ message: "/promote target=staging", tools: TOOLS });
    session.plan();
    const call: ToolCall = { id: "a", name: "skill_promote", input: { target: "production" } };
    session.respond([call]);
    const fork = session.fork(call);
    expect(fork?.instructions).toContain("Promote to staging.");
    expect(fork?.instructions).not.toContain("production");
  });

  it("once per /name: a second start in the same turn is refused", () => {
    const session = shelf.session({ message: "/ship staging", tools: TOOLS });
    session.plan();
    const first: ToolCall = { id: "a", name: "skill_ship", input: { args: "staging" } };
    const second: ToolCall = { id: "b", name: "skill_ship", input: { args: "staging" } };
    session.respond([first, second]);
    expect(session.fork(first)).toBeDefined();
    expect(session.fork(second)).toBeUndefined();
    expect(session.callSkillTool(second)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
    // The same call asked again is the same answer (the framework runs it after respond).
    expect(session.fork(first)).toBeDefined();
  });

  it("once per /name in a stateless host too: the history's run counts", () => {
    const live = shelf.session({ message: "/ship staging", tools: TOOLS });
    live.plan();
    const call: ToolCall = { id: "a", name: "skill_ship", input: { args: "staging" } };
    live.respond([call]);
    const fork = live.fork(call)!;
    const history: HistoryItem[] = [
      { kind: "user", text: "/ship staging" },
      {
        kind: "tool-call",
        id: "a",
        toolName: "skill_ship",
        input: call.input,
        output: forkResult(fork, "deployed"),
      },
    ];
    const next = shelf.session({ history, tools: TOOLS });
    next.plan();
    const again: ToolCall = { id: "b", name: "skill_ship", input: { args: "production" } };
    next.respond([again]);
    expect(next.fork(again)).toBeUndefined();
    expect(next.callSkillTool(again)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
    // A new /ship in a later turn runs it again, once.
    const later = shelf.session({
      history: [...history, { kind: "user", text: "/ship qa" }],
      tools: TOOLS,
    });
    later.plan();
    const third: ToolCall = { id: "c", name: "skill_ship", input: {} };
    later.respond([third]);
    expect(later.fork(third)?.task).toBe("qa");
  });

  it("once per /name in a checkpointing host too: the turn's recorded run counts", () => {
    const live = shelf.session({ history: [{ kind: "user", text: "/ship staging" }], tools: TOOLS });
    live.plan();
    const call: ToolCall = { id: "a", name: "skill_ship", input: { args: "staging" } };
    live.respond([call]);
    const fork = live.fork(call)!;
    const history: HistoryItem[] = [
      { kind: "user", text: "/ship staging" },
      {
        kind: "tool-call",
        id: "a",
        toolName: "skill_ship",
        input: call.input,
        output: forkResult(fork, "deployed"),
      },
    ];
    const next = shelf.session({ state: live.toJSON(), history, tools: TOOLS });
    next.plan();
    const again: ToolCall = { id: "b", name: "skill_ship", input: {} };
    next.respond([again]);
    expect(next.fork(again)).toBeUndefined();
    expect(next.callSkillTool(again)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
  });

  it("without the user's /name in this turn: refused (checked fine)", () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "/ship staging" },
      { kind: "user", text: "now do it again for production" },
    ];
    const session = shelf.session({ history, tools: TOOLS });
    session.plan();
    const call: ToolCall = { id: "x", name: "activate_skill", input: { name: "ship", args: "production" } };
    session.respond([call]);
    expect(session.fork(call)).toBeUndefined();
    expect(session.callSkillTool(call)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
  });

  it("a model-invocable fork may run again with the model's arguments (unchanged)", () => {
    const session = shelf.session({ message: "summarise it", tools: TOOLS });
    session.plan();
    const a: ToolCall = { id: "a", name: "skill_summarise", input: { args: "one" } };
    const b: ToolCall = { id: "b", name: "skill_summarise", input: { args: "two" } };
    session.respond([a, b]);
    expect(session.fork(a)?.task).toBe("one");
    expect(session.fork(b)?.task).toBe("two");
  });
});

describe("a fork started in the same response as an activation (checked fine)", () => {
  it("before the activation in the response: the sub-agent's calls still meet the skill's whitelist", () => {
    const session = shelf.session({ message: "read it, and summarise it", tools: TOOLS });
    session.plan();
    const fork: ToolCall = { id: "f", name: "skill_summarise", input: {} };
    const reader: ToolCall = { id: "r", name: "skill_reader", input: {} };
    session.respond([fork, reader]);
    const started = session.fork(fork)!;
    expect(started.guard({ name: "send_email", input: {} })).toMatchObject({
      allowed: false,
      result: { error_type: "TOOL_NOT_ALLOWED" },
    });
    expect(started.guard({ name: "read_file", input: { path: "a" } })).toEqual({ allowed: true });
  });

  it("after it: the sub-agent is not even given the tool", () => {
    const session = shelf.session({ message: "read it, and summarise it", tools: TOOLS });
    session.plan();
    const reader: ToolCall = { id: "r", name: "skill_reader", input: {} };
    const fork: ToolCall = { id: "f", name: "skill_summarise", input: {} };
    session.respond([reader, fork]);
    const started = session.fork(fork)!;
    expect(started.tools).toEqual(["read_file"]);
    expect(started.withheld).toEqual(expect.arrayContaining(["send_email"]));
  });
});
