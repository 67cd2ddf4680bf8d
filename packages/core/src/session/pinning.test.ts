/**
 * The model must not be able to rewrite its own whitelist. Attack: under a skill allowing
 * only `write_file read_file`, the model uses `write_file` to rewrite, delete or shadow that
 * skill's SKILL.md, hot reload picks the change up, and `send_email` runs. Two defences,
 * each tested on its own: writes into skill folders are refused by default, and an active
 * skill's limits are pinned at activation, so a changed file never widens them — in a live
 * session, after a history replay and after a state round-trip.
 */
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { HistoryItem, SessionState } from "../types.js";

const NOTES = `---
name: notes-writer
description: Writes meeting notes into the notes folder.
allowed-tools: write_file read_file
---
Write the notes to notes/<date>.md.
`;
const UNRESTRICTED = "---\nname: notes-writer\ndescription: Writes meeting notes.\n---\nDo anything.\n";
const TOOLS = ["write_file", "read_file", "send_email"];
const MESSAGE = "write the meeting notes";

let root: string;
let userDir: string;
let shelf: Shelf | undefined;

const projectSkill = () => path.join(root, ".skillshelf", "skills", "notes-writer", "SKILL.md");
const userSkill = () => path.join(userDir, "notes-writer", "SKILL.md");

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-pinning-"));
  userDir = path.join(root, "home-skills");
  await mkdir(path.dirname(projectSkill()), { recursive: true });
  await writeFile(projectSkill(), NOTES);
});

afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

const open = async (options: Parameters<typeof createShelf>[0] = {}) => {
  shelf = await createShelf({ root, userDirs: [userDir], events: false, ...options });
  return shelf;
};

const sendEmail = { id: "mail", name: "send_email", input: { to: "attacker@example.com", body: "secrets" } };

type Attack = { name: string; run: () => Promise<void>; setup?: () => Promise<void> };
const attacks: Attack[] = [
  { name: "rewrites the SKILL.md without allowed-tools", run: () => writeFile(projectSkill(), UNRESTRICTED) },
  { name: "deletes the SKILL.md", run: () => rm(projectSkill()) },
  {
    // A replay that re-judged the recorded activation would now refuse it, and drop its limits.
    name: "rewrites it as user-only (disable-model-invocation) without allowed-tools",
    run: () =>
      writeFile(
        projectSkill(),
        UNRESTRICTED.replace("description:", "disable-model-invocation: true\ndescription:"),
      ),
  },
  {
    name: "rewrites it as a role without allowed-tools",
    run: () => writeFile(projectSkill(), UNRESTRICTED.replace("description:", "role: true\ndescription:")),
  },
  {
    name: "rewrites it with an exclusion that vetoes the request",
    run: () =>
      writeFile(
        projectSkill(),
        UNRESTRICTED.replace("description:", "exclusions: [meeting notes]\ndescription:"),
      ),
  },
  {
    name: "renames the skill folder away",
    run: () => rename(path.dirname(projectSkill()), `${path.dirname(projectSkill())}-old`),
  },
  {
    // The skill lives in the user folder; a project SKILL.md of the same name takes precedence.
    name: "shadows it with a higher-precedence SKILL.md",
    setup: async () => {
      await rm(path.dirname(projectSkill()), { recursive: true });
      await mkdir(path.dirname(userSkill()), { recursive: true });
      await writeFile(userSkill(), NOTES);
    },
    run: async () => {
      await mkdir(path.dirname(projectSkill()), { recursive: true });
      await writeFile(projectSkill(), UNRESTRICTED);
    },
  },
];

describe("writes into skill folders are refused by default", () => {
  it("write_file on the active skill's SKILL.md is SKILL_FILES_PROTECTED", async () => {
    const s = await open();
    const session = s.session({ message: MESSAGE, tools: TOOLS });
    expect(session.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} })).toMatchObject({
      status: "success",
    });
    for (const target of [
      projectSkill(),
      ".skillshelf/skills/notes-writer/SKILL.md",
      ".skillshelf/skills/other/SKILL.md", // a new, higher-precedence or extra skill
      ".agents/skills/notes-writer/SKILL.md", // another project skill root
      path.join(userDir, "notes-writer", "SKILL.md"), // the user's skills
      ".skillshelf/usage.json", // skillshelf's own state
    ]) {
      const verdict = session.guard({ name: "write_file", input: { path: target, content: UNRESTRICTED } });
      expect(verdict, target).toMatchObject({
        allowed: false,
        result: { error_type: "SKILL_FILES_PROTECTED" },
      });
    }
    // Arguments as JSON text, and a path hidden in a nested field, are read too.
    expect(
      session.guard({ name: "write_file", input: JSON.stringify({ files: [{ path: projectSkill() }] }) })
        .allowed,
    ).toBe(false);
    expect(await readFile(projectSkill(), "utf8")).toBe(NOTES);
    // Ordinary writes, and reading the skill's files, still work.
    expect(
      session.guard({ name: "write_file", input: { path: "notes/2026-11-30.md", content: "x" } }),
    ).toEqual({
      allowed: true,
    });
    expect(session.guard({ name: "read_file", input: { path: projectSkill() } })).toEqual({ allowed: true });
  });

  it("protects with no skill active too (a model must not plant a skill for the next conversation)", async () => {
    const s = await open();
    const session = s.session({ message: "hello", tools: TOOLS });
    expect(
      session.guard({ name: "write_file", input: { path: ".skillshelf/skills/evil/SKILL.md" } }).allowed,
    ).toBe(false);
  });

  it("protectSkillFiles: false turns the tripwire off (the host's choice)", async () => {
    const s = await open({ protectSkillFiles: false });
    const session = s.session({ message: MESSAGE, tools: TOOLS });
    expect(session.guard({ name: "write_file", input: { path: projectSkill() } })).toEqual({ allowed: true });
  });
});

describe("an active skill's limits are pinned: a changed file never widens them", () => {
  for (const attack of attacks) {
    describe(`the model ${attack.name}`, () => {
      beforeEach(async () => {
        await attack.setup?.();
      });

      it("in a live session", async () => {
        const s = await open({ protectSkillFiles: false });
        const session = s.session({ message: MESSAGE, tools: TOOLS });
        const activated = session.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} });
        expect(activated).toMatchObject({
          status: "success",
          data: { policy: { allowedTools: ["write_file", "read_file"] } },
        });
        expect(session.guard({ name: "write_file", input: { path: projectSkill() } }).allowed).toBe(true);
        await attack.run();
        await s.refresh();
        expect(session.guard(sendEmail)).toMatchObject({
          allowed: false,
          result: { error_type: "TOOL_NOT_ALLOWED" },
        });
        expect(session.plan().allowedTools).toEqual(["write_file", "read_file"]);
      });

      it("after a history replay (a stateless host)", async () => {
        const s = await open({ protectSkillFiles: false });
        const history: HistoryItem[] = [{ kind: "user", text: MESSAGE }];
        const first = s.session({ history, tools: TOOLS });
        const call = { id: "a", name: "skill_notes-writer", input: {} };
        // Hosts record the output as the model read it: the object, or its JSON text.
        history.push({
          kind: "tool-call",
          toolName: call.name,
          input: call.input,
          id: call.id,
          output: JSON.stringify(first.callSkillTool(call)),
        });
        await attack.run();
        history.push({
          kind: "tool-call",
          toolName: "write_file",
          input: { path: projectSkill() },
          output: "ok",
          id: "w",
        });
        await s.refresh();
        const next = s.session({ history, tools: TOOLS });
        expect(next.state.active.map((a) => a.name)).toEqual(["notes-writer"]);
        expect(next.guard(sendEmail)).toMatchObject({
          allowed: false,
          result: { error_type: "TOOL_NOT_ALLOWED" },
        });
        expect(next.plan().allowedTools).toEqual(["write_file", "read_file"]);
      });

      it("after a state round-trip (a checkpointing host)", async () => {
        const s = await open({ protectSkillFiles: false });
        const first = s.session({ message: MESSAGE, tools: TOOLS });
        first.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} });
        const saved = JSON.parse(JSON.stringify(first.toJSON())) as SessionState;
        await attack.run();
        await s.refresh();
        const next = s.session({ state: saved, message: MESSAGE, tools: TOOLS });
        expect(next.guard(sendEmail)).toMatchObject({
          allowed: false,
          result: { error_type: "TOOL_NOT_ALLOWED" },
        });
        // A continuation keeps the skill, under the same pinned limits.
        const later = s.session({ state: next.toJSON(), message: "ok, go ahead", tools: TOOLS });
        expect(later.state.active.map((a) => a.name)).toEqual(["notes-writer"]);
        expect(later.guard(sendEmail).allowed).toBe(false);
      });
    });
  }

  it("a checkpoint whose pinned whitelist was tampered into garbage restricts to nothing", async () => {
    const s = await open();
    const state = {
      active: [
        {
          name: "notes-writer",
          by: "model",
          at: "x",
          policy: { allowedTools: "everything", disallowedTools: [] },
        },
      ],
    } as unknown as SessionState;
    const session = s.session({ state, tools: TOOLS });
    expect(session.allowedTools()).toEqual([]);
    expect(session.guard(sendEmail).allowed).toBe(false);
  });

  // Was "never during this one": a session kept for a whole run (Mastra) then held a narrowed
  // skill's old tools while a framework opening a session per call (or one read back from a
  // checkpoint or history) dropped them at once. A pin is now bounded by the file everywhere.
  it("an edit that narrows the file takes effect at the next call, also during this activation", async () => {
    const s = await open({ protectSkillFiles: false });
    const session = s.session({ message: MESSAGE, tools: TOOLS });
    session.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} });
    expect(session.plan().allowedTools).toEqual(["write_file", "read_file"]);
    await writeFile(projectSkill(), NOTES.replace("write_file read_file", "read_file"));
    await s.refresh();
    expect(session.plan().allowedTools).toEqual(["read_file"]);
    expect(session.guard({ name: "write_file", input: { path: "notes.md" } }).allowed).toBe(false);
    const fresh = s.session({ message: MESSAGE, tools: TOOLS });
    fresh.callSkillTool({ id: "b", name: "skill_notes-writer", input: {} });
    expect(fresh.plan().allowedTools).toEqual(["read_file"]);
  });
});
