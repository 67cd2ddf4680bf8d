/**
 * Tool-name tricks against an active skill's whitelist: case, look-alikes, whitespace,
 * `skill_`-shaped names and skillshelf's own tool names worn by a host tool. The guard must
 * refuse every name the whitelist does not admit; a name it waves through as "a skill tool"
 * must never be a host tool that then runs.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";

const SKILL = `---
name: release-notes
description: Draft release notes from the git log since the last tag.
triggers: [release notes]
allowed-tools: git_log
---
RELEASE-BODY
`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-name-tricks-"));
  await mkdir(path.join(root, ".skillshelf", "skills", "release-notes"), { recursive: true });
  await writeFile(path.join(root, ".skillshelf", "skills", "release-notes", "SKILL.md"), SKILL);
  shelf = await createShelf({ root, userDirs: [], events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const TRICKS = [
  "Send_Email",
  "SEND_EMAIL",
  "send_email ",
  " send_email",
  "send\u200Bemail",
  "ｓｅｎｄ_email",
  "Git_log",
  "git_log\u0000",
  "gіt_log", // Cyrillic i
  "skill_send_email",
  "skill_release-notes ",
  `${"send_email".repeat(500)}`,
];

describe("tool-name tricks under an active whitelist", () => {
  for (const name of TRICKS) {
    it(`${JSON.stringify(name.slice(0, 30))}: refused or a skill tool the session answers, never run`, () => {
      const tools = ["git_log", "send_email", name];
      const session = shelf.session({ message: "write the release notes", tools });
      session.respond([{ id: "a1", name: "skill_release-notes", input: {} }]);
      session.callSkillTool({ id: "a1", name: "skill_release-notes", input: {} });
      expect(session.state.active.map((a) => a.name)).toEqual(["release-notes"]);
      expect(session.guard({ name, input: {} }).allowed).toBe(false);
    });
  }

  for (const own of ["read_skill_file", "end_skill", "activate_skill", "skill_release-notes"]) {
    it(`a host tool named ${own}, learned only from a later step's tools: never waved through`, () => {
      // The host did not pass its tools up front (a LangChain/Mastra host may hand them per step).
      const session = shelf.session({ message: "write the release notes" });
      session.respond([{ id: "a1", name: "skill_release-notes", input: {} }]);
      session.callSkillTool({ id: "a1", name: "skill_release-notes", input: {} });
      session.plan({ tools: ["git_log", "send_email", own] } as never);
      const verdict = session.guard({ name: own, input: { path: "/etc/passwd" } });
      // Either refused, or the session owns the name (and then answers it itself).
      if (verdict.allowed) expect(session.isSkillTool(own)).toBe(true);
    });
  }
});
