/**
 * Ways a model might try to get a wider whitelist than the skill it runs under: end it and
 * start the next skill in the same response, or run two skills of one `group` (a rival),
 * one after the other or together, or after the rival's file dropped its group. Each must
 * leave the conversation at most what the first skill allowed until the user speaks.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { HistoryItem, Session, ToolCall } from "../types.js";

const TOOLS = ["read_file", "send_email", "git_log"];
const skill = (name: string, fields: string) =>
  `---\nname: ${name}\ndescription: The ${name} skill does ${name} work.\n${fields}\n---\nDo ${name}.\n`;
const SKILLS: Record<string, string> = {
  reader: skill("reader", "triggers: [read it]\nallowed-tools: read_file"),
  mailer: skill("mailer", "triggers: [mail it]\nallowed-tools: read_file send_email"),
  "tone-formal": skill("tone-formal", "group: tone\ntriggers: [tone]\nallowed-tools: read_file"),
  "tone-casual": skill("tone-casual", "group: tone\ntriggers: [tone]\nallowed-tools: read_file send_email"),
  summarise: skill("summarise", "context: fork\ngroup: tone\ntriggers: [summarise it]"),
};
const file = (name: string) => path.join(root, ".skillshelf", "skills", name, "SKILL.md");

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-end-rivals-"));
  for (const [name, text] of Object.entries(SKILLS)) {
    await mkdir(path.dirname(file(name)), { recursive: true });
    await writeFile(file(name), text);
  }
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const activate = (name: string, id = name): ToolCall => ({ id, name: "activate_skill", input: { name } });
const mail: ToolCall = { id: "m", name: "send_email", input: { to: "x@example.com" } };
const emailAllowed = (s: Session) => s.guard(mail).allowed;

function underReader(message = "read it, then mail it"): Session {
  const session = shelf.session({ message, tools: TOOLS });
  session.plan();
  const call = activate("reader", "r");
  session.respond([call]);
  expect(session.callSkillTool(call)).toMatchObject({ status: "success" });
  session.plan();
  return session;
}

describe("end_skill and the next skill's activation in one response", () => {
  for (const order of ["end first", "activation first"] as const) {
    it(`${order}: the tool only the next skill allows stays refused until the user speaks`, () => {
      const session = underReader();
      const end: ToolCall = { id: "e", name: "end_skill", input: {} };
      const next = activate("mailer", "n");
      const calls = order === "end first" ? [end, next, mail] : [next, end, mail];
      session.respond(calls);
      expect(session.callSkillTool(end)).toMatchObject({ status: "success" });
      expect(emailAllowed(session)).toBe(false);
      // The next step of the same turn: still held.
      session.plan();
      expect(emailAllowed(session)).toBe(false);
    });
  }

  it("replayed from the history (a stateless host): still held in that turn", () => {
    const live = underReader();
    const end: ToolCall = { id: "e", name: "end_skill", input: {} };
    const next = activate("mailer", "n");
    live.respond([end, next]);
    const history: HistoryItem[] = [
      { kind: "user", text: "read it, then mail it" },
      {
        kind: "tool-call",
        id: "r",
        toolName: "activate_skill",
        input: { name: "reader" },
        output: live.callSkillTool(activate("reader", "r")),
      },
      { kind: "tool-call", id: "e", toolName: "end_skill", input: {}, output: live.callSkillTool(end) },
      {
        kind: "tool-call",
        id: "n",
        toolName: "activate_skill",
        input: { name: "mailer" },
        output: live.callSkillTool(next),
      },
    ];
    const replayed = shelf.session({ history, tools: TOOLS });
    replayed.plan();
    expect(emailAllowed(replayed)).toBe(false);
  });

  it('"/done" typed by the model (in a tool input or a host tool output) ends nothing', () => {
    const history: HistoryItem[] = [
      { kind: "user", text: "read it" },
      {
        kind: "tool-call",
        id: "r",
        toolName: "activate_skill",
        input: { name: "reader" },
        output: underReader("read it").callSkillTool(activate("reader", "r")),
      },
      {
        kind: "tool-call",
        id: "x",
        toolName: "read_file",
        input: { path: "/done" },
        output: "/done\n/mailer",
      },
    ];
    const replayed = shelf.session({ history, tools: TOOLS });
    replayed.plan();
    expect(replayed.state.active.map((a) => a.name)).toEqual(["reader"]);
    expect(emailAllowed(replayed)).toBe(false);
  });
});

describe("group rivals", () => {
  it("two rivals in one response: the second is refused, the first's whitelist holds", () => {
    for (const [first, second] of [
      ["tone-formal", "tone-casual"],
      ["tone-casual", "tone-formal"],
    ] as const) {
      const session = shelf.session({ message: "set the tone", tools: TOOLS });
      session.plan();
      const a = activate(first, "a");
      const b = activate(second, "b");
      session.respond([a, b]);
      expect(session.callSkillTool(b)).toMatchObject({ status: "error" });
      expect(session.state.active.map((x) => x.name)).toEqual([first]);
      expect(emailAllowed(session)).toBe(first === "tone-casual");
    }
  });

  it("the active rival ended by the model, the other started: still the first's limits", () => {
    const session = shelf.session({ message: "set the tone", tools: TOOLS });
    session.plan();
    const a = activate("tone-formal", "a");
    session.respond([a]);
    session.plan();
    const end: ToolCall = { id: "e", name: "end_skill", input: {} };
    const b = activate("tone-casual", "b");
    session.respond([end, b, mail]);
    expect(emailAllowed(session)).toBe(false);
  });

  it("the active rival's file drops its group mid-activation: the other one only narrows", async () => {
    const session = shelf.session({ message: "set the tone", tools: TOOLS });
    session.plan();
    session.respond([activate("tone-formal", "a")]);
    await writeFile(file("tone-formal"), skill("tone-formal", "triggers: [tone]\nallowed-tools: read_file"));
    await shelf.refresh({ full: true });
    const next = shelf.session({ state: session.toJSON(), message: "set the tone", tools: TOOLS });
    next.plan();
    next.respond([activate("tone-casual", "b")]);
    expect(emailAllowed(next)).toBe(false);
  });

  it("a forked rival runs within the active one's whitelist", () => {
    const session = shelf.session({ message: "set the tone and summarise it", tools: TOOLS });
    session.plan();
    session.respond([activate("tone-formal", "a")]);
    session.plan();
    const f = activate("summarise", "f");
    session.respond([f]);
    const fork = session.fork(f);
    if (fork) {
      expect(fork.tools).not.toContain("send_email");
      expect(fork.guard({ name: "send_email", input: {} }).allowed).toBe(false);
    } else {
      expect(session.callSkillTool(f)).toMatchObject({ status: "error" });
    }
  });
});
