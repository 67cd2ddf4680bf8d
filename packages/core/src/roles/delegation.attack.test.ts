/**
 * A delegated sub-agent is the model too: each call it makes is judged as the lead's are —
 * a tool it was not given, one the parent's skills rule out for those arguments, a write into
 * a skill folder — whether or not a conversation delegated.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInSession } from "../session/current-session.js";
import { createShelf, type Shelf } from "../shelf.js";
import type { Delegation } from "./delegation.js";

const TOOLS = ["read_file", "write_file", "bash", "send_email"];
const GIT_ONLY = `---
name: git-helper
description: Answers questions about the git history.
allowed-tools: read_file write_file delegate Bash(git:*)
---
Use git.
`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-delegation-attack-"));
  await mkdir(path.join(root, ".skillshelf", "skills", "git-helper"), { recursive: true });
  await writeFile(path.join(root, ".skillshelf", "skills", "git-helper", "SKILL.md"), GIT_ONLY);
  shelf = await createShelf({ root, userDirs: [], events: false, toolAliases: { Bash: ["bash"] } });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const delegationOf = (result: ReturnType<Shelf["prepareDelegation"]>): Delegation => {
  expect(result.status).toBe("success");
  return (result as { data: Delegation }).data;
};

describe("a delegation's guard", () => {
  it("outside a conversation: writes into skill folders and the state are refused, other calls run", () => {
    const developer = delegationOf(shelf.prepareDelegation({ role: "developer", task: "set up" }, TOOLS));
    expect(developer.tools).toEqual(expect.arrayContaining(["write_file", "bash"]));
    for (const input of [
      { path: ".skillshelf/skills/evil/SKILL.md" },
      { path: ".skillshelf/skills/git-helper/SKILL.md" },
      { command: "echo x > .skillshelf//skills/git-helper/SKILL.md" },
      { path: ".skillshelf/usage.json" },
    ]) {
      const name = "path" in input ? "write_file" : "bash";
      expect(developer.guard({ name, input }), JSON.stringify(input)).toMatchObject({
        allowed: false,
        result: { error_type: "SKILL_FILES_PROTECTED" },
      });
    }
    expect(developer.guard({ name: "write_file", input: { path: "src/app.ts" } })).toEqual({ allowed: true });
    // A tool it was not given, although the host has it.
    expect(developer.guard({ name: "send_email", input: {} })).toMatchObject({
      allowed: false,
      result: { error_type: "TOOL_NOT_ALLOWED" },
    });
  });

  it("under the parent's skill: its argument limits hold in the sub-agent too", () => {
    const parent = shelf.session({ message: "what changed in git", tools: [...TOOLS, "delegate"] });
    expect(parent.callSkillTool({ id: "a", name: "skill_git-helper", input: {} })).toMatchObject({
      status: "success",
    });
    const developer = runInSession(parent, () =>
      delegationOf(shelf.prepareDelegation({ role: "developer", task: "look at git" }, TOOLS)),
    );
    // bash is command-limited in the parent: the sub-agent's calls meet the same condition.
    expect(developer.guard({ name: "bash", input: { command: "rm -rf /" } })).toMatchObject({
      allowed: false,
      result: { error_type: "TOOL_NOT_ALLOWED" },
    });
    expect(developer.guard({ name: "bash", input: { command: "git log --oneline" } })).toEqual({
      allowed: true,
    });
    expect(developer.guard({ name: "send_email", input: {} }).allowed).toBe(false);
    expect(
      developer.guard({ name: "write_file", input: { path: ".skillshelf/skills/x/SKILL.md" } }),
    ).toMatchObject({
      allowed: false,
      result: { error_type: "SKILL_FILES_PROTECTED" },
    });
    expect(developer.guard({ name: "read_file", input: { path: "README.md" } })).toEqual({ allowed: true });
  });
});
