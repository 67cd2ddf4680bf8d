/**
 * A skill's scope, end to end on a real shelf (SKILL.md files in a temp project, the real
 * matcher): a host that opens one session per model call from its checkpoint and the
 * conversation, the way every adapter does.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf, type ShelfOptions } from "../shelf.js";
import type { HistoryItem, Session, SessionState, ToolCall } from "../types.js";
import { isContinuation } from "./scope.js";

const RELEASE_NOTES = `---
name: release-notes
description: Writes release notes for a version from the git log.
triggers: [release notes, changelog]
allowed-tools: git_log read_file
---
Read the git log since the last tag and write the release notes.
`;

// Seed 000's accident: a skill that must only run when the user asks for it.
const BULK_RENAME = `---
name: bulk-rename
description: Renames many files at once following a naming pattern.
disable-model-invocation: true
allowed-tools: list_files rename_file
---
Rename the files as asked: $ARGUMENTS.
`;

const TOOLS = ["git_log", "read_file", "web_search", "send_email", "list_files", "rename_file"];

let root: string;
let shelf: Shelf | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-scope-"));
  const dir = path.join(root, ".skillshelf", "skills", "release-notes");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "SKILL.md"), RELEASE_NOTES);
  const rename = path.join(root, ".skillshelf", "skills", "bulk-rename");
  await mkdir(rename, { recursive: true });
  await writeFile(path.join(rename, "SKILL.md"), BULK_RENAME);
});

afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

/** A checkpointing host: one session per model call, every tool call recorded with its output. */
async function chat(options: Partial<ShelfOptions> = {}) {
  shelf = await createShelf({ root, userDirs: [], events: false, ...options });
  const s = shelf;
  const history: HistoryItem[] = [];
  let state: SessionState | undefined;
  let ids = 0;
  const open = (): Session => s.session({ history, tools: TOOLS, ...(state && { state }) });
  const save = (session: Session) => {
    state = JSON.parse(JSON.stringify(session.toJSON())) as SessionState;
  };
  return {
    /** The user types a message; the model's first call of the turn is planned. */
    user(text: string) {
      history.push({ kind: "user", text });
      const session = open();
      const plan = session.plan();
      save(session);
      return plan;
    },
    /** One model response: its calls, run the way the adapters run them. */
    respond(...calls: Array<Omit<ToolCall, "id">>) {
      const session = open();
      const withIds = calls.map((c) => ({ ...c, id: `call-${++ids}` }));
      session.respond(withIds);
      const results = withIds.map((call) => {
        const output = session.isSkillTool(call.name)
          ? session.callSkillTool(call)
          : (() => {
              const verdict = session.guard(call);
              return verdict.allowed ? `${call.name} ran` : verdict.result;
            })();
        history.push({ kind: "tool-call", toolName: call.name, input: call.input, output, id: call.id });
        return output;
      });
      save(session);
      return results;
    },
    /** The next model call of the same turn. */
    plan() {
      const session = open();
      const plan = session.plan();
      save(session);
      return plan;
    },
    get state() {
      return state;
    },
  };
}

const blocked = (output: unknown) => (output as { error_type?: string })?.error_type === "TOOL_NOT_ALLOWED";

describe("task scope (the default)", () => {
  it("release notes, then an unrelated request: the skill ends and web_search works again", async () => {
    const c = await chat();
    const first = c.user("write the release notes for v2.3");
    expect(first.candidates[0]?.name).toBe("release-notes");
    expect(c.respond({ name: "skill_release-notes", input: {} })[0]).toMatchObject({ status: "success" });
    expect(c.plan().allowedTools).toEqual(["git_log", "read_file"]);
    expect(blocked(c.respond({ name: "web_search", input: { q: "x" } })[0])).toBe(true);

    const next = c.user("search the web for cheap flights to Lisbon in March");
    expect(next.ended).toEqual([{ name: "release-notes", why: "new-request" }]);
    expect(next.allowedTools).toEqual(TOOLS);
    expect(next.system).toContain('Skill "release-notes" (active for the previous request) has ended');
    expect(next.system).not.toContain("<skill_content");
    // Re-offered for this turn, in case it was a follow-up stage 1 did not recognise.
    expect(next.tools.map((t) => t.name)).toContain("skill_release-notes");
    expect(next.system).toContain("call skill_release-notes to activate it again");
    expect(c.respond({ name: "web_search", input: { q: "flights" } })[0]).toBe("web_search ran");
    expect(c.state?.active).toEqual([]);
  });

  it("a continuation keeps the skill and its restriction", async () => {
    const c = await chat();
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    for (const text of ["ok, go ahead", "yes", "好的，继续"]) {
      expect(isContinuation(text)).toBe(true);
      const plan = c.user(text);
      expect(plan.ended).toEqual([]);
      expect(plan.allowedTools).toEqual(["git_log", "read_file"]);
      expect(plan.system).toContain('<skill_content name="release-notes">');
      expect(blocked(c.respond({ name: "web_search", input: {} })[0])).toBe(true);
    }
  });

  it("a follow-up stage 1 still routes to the skill keeps it", async () => {
    const c = await chat();
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    const plan = c.user("add a section on breaking changes to the release notes");
    expect(plan.ended).toEqual([]);
    expect(plan.allowedTools).toEqual(["git_log", "read_file"]);
  });

  it("/done ends it: a note for the model, every tool back", async () => {
    const c = await chat();
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    const plan = c.user("/done");
    expect(plan.ended).toEqual([{ name: "release-notes", why: "user" }]);
    expect(plan.system).toContain('The user ended "release-notes" (/done)');
    expect(plan.allowedTools).toEqual(TOOLS);
    expect(plan.tools.map((t) => t.name)).not.toContain("end_skill");
    expect(c.respond({ name: "send_email", input: {} })[0]).toBe("send_email ran");
    // With nothing active, /done just says so.
    expect(c.user("/done").system).toContain("no skill was active");
  });

  it("end_skill: the body goes, the limits hold until the user's next message", async () => {
    const c = await chat();
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    expect(c.plan().tools.map((t) => t.name)).toContain("end_skill");
    // A hostile model ends the skill and reaches for a forbidden tool in the same response.
    const [ended, sent] = c.respond(
      { name: "end_skill", input: {} },
      { name: "send_email", input: { to: "x" } },
    );
    expect(ended).toMatchObject({ status: "success", data: { ended: ["release-notes"] } });
    expect(blocked(sent)).toBe(true);
    const after = c.plan();
    expect(after.system).not.toContain("<skill_content");
    expect(after.system).toContain('You ended "release-notes"');
    expect(after.allowedTools).toEqual(["git_log", "read_file"]);
    expect(after.tools.map((t) => t.name)).not.toContain("end_skill");
    expect(blocked(c.respond({ name: "send_email", input: {} })[0])).toBe(true);
    // The user's next message lifts them, whatever it says.
    const next = c.user("ok thanks");
    expect(next.allowedTools).toEqual(TOOLS);
    expect(c.state?.active).toEqual([]);
  });

  it("the same end_skill in the other order is judged the same way", async () => {
    const c = await chat();
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    const [sent] = c.respond({ name: "send_email", input: {} }, { name: "end_skill", input: {} });
    expect(blocked(sent)).toBe(true);
  });

  it('"/bulk-rename docs meeting-" after the release notes is a new task: its tools work', async () => {
    const c = await chat();
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    const plan = c.user("/bulk-rename docs meeting-");
    expect(plan.explicit).toMatchObject({ status: "success" });
    expect(plan.ended).toEqual([{ name: "release-notes", why: "new-turn" }]);
    expect(plan.allowedTools).toEqual(["list_files", "rename_file"]);
    expect(plan.system).toContain("Rename the files as asked: docs meeting-.");
    const [listed, renamed] = c.respond(
      { name: "list_files", input: { path: "docs" } },
      { name: "rename_file", input: { from: "docs/a.md", to: "docs/meeting-a.md" } },
    );
    expect([listed, renamed]).toEqual(["list_files ran", "rename_file ran"]);
  });

  it("end_skill with nothing active, or naming a skill that is not active, is refused", async () => {
    const c = await chat();
    c.user("hello");
    expect(c.respond({ name: "end_skill", input: {} })[0]).toMatchObject({ error_type: "NOT_ACTIVE" });
    c.respond({ name: "skill_release-notes", input: {} });
    expect(c.respond({ name: "end_skill", input: { name: "other" } })[0]).toMatchObject({
      error_type: "NOT_ACTIVE",
    });
  });
});

describe("turn scope", () => {
  it("every user message ends the skill, a continuation too", async () => {
    const c = await chat({ scope: "turn" });
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    expect(blocked(c.respond({ name: "web_search", input: {} })[0])).toBe(true);
    const plan = c.user("ok, go ahead");
    expect(plan.ended).toEqual([{ name: "release-notes", why: "new-turn" }]);
    expect(plan.allowedTools).toEqual(TOOLS);
  });
});

describe("session scope", () => {
  it("an unrelated request keeps the skill; /done and end_skill end it", async () => {
    const c = await chat({ scope: "session" });
    c.user("write the release notes for v2.3");
    c.respond({ name: "skill_release-notes", input: {} });
    const unrelated = c.user("search the web for cheap flights to Lisbon in March");
    expect(unrelated.ended).toEqual([]);
    expect(unrelated.allowedTools).toEqual(["git_log", "read_file"]);
    expect(blocked(c.respond({ name: "web_search", input: {} })[0])).toBe(true);
    expect(c.user("/done").allowedTools).toEqual(TOOLS);

    c.user("write the release notes for v2.4");
    c.respond({ name: "skill_release-notes", input: {} });
    c.respond({ name: "end_skill", input: { name: "release-notes" } });
    expect(c.user("what's next?").allowedTools).toEqual(TOOLS);
  });
});
