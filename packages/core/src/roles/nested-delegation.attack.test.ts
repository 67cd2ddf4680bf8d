/**
 * A sub-agent that delegates again (a host delegation tool under a name core does not
 * exclude, or two delegation tools) must not hand its task to a role with tools it was not
 * given itself: a read-only reviewer must not reach a writing developer's tools, with or
 * without a conversation above it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDelegation } from "../adapter-kit/delegation.js";
import { runInSession } from "../session/current-session.js";
import { createShelf, type Shelf } from "../shelf.js";
import type { Delegation } from "./delegation.js";

const TOOLS = ["read_file", "write_file", "handoff"];
const role = (name: string, tools: string) => `---
name: ${name}
description: The ${name} role.
role: true
allowed-tools: ${tools}
---
Do the ${name}'s job.
`;
const WIDE = `---
name: wide
description: Anything with files.
allowed-tools: read_file write_file handoff delegate
---
Work with files.
`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-nested-delegation-"));
  for (const [name, content] of [
    ["auditor", role("auditor", "read_file handoff")],
    ["writer", role("writer", "read_file write_file")],
    ["wide", WIDE],
  ] as const) {
    await mkdir(path.join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(path.join(root, ".skillshelf", "skills", name, "SKILL.md"), content);
  }
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

/** Run the auditor; inside its run, the way its `handoff` tool would, prepare the writer. */
async function nested(): Promise<{ outer: Delegation; inner: Delegation }> {
  let outer: Delegation | undefined;
  let inner: Delegation | undefined;
  const result = await runDelegation(
    shelf,
    { role: "auditor", task: "audit" },
    {
      tools: TOOLS,
      run: async (delegation) => {
        outer = delegation;
        await Promise.resolve();
        const prepared = shelf.prepareDelegation({ role: "writer", task: "write it" }, TOOLS);
        expect(prepared.status).toBe("success");
        inner = (prepared as { data: Delegation }).data;
        return "done";
      },
    },
  );
  expect(result.status).toBe("success");
  return { outer: outer!, inner: inner! };
}

describe("a delegation inside a delegation", () => {
  it("without a conversation: the inner sub-agent gets only tools the outer one has", async () => {
    const { outer, inner } = await nested();
    expect(outer.tools).toEqual(["read_file", "handoff"]);
    expect(inner.tools).toEqual(["read_file"]);
    expect(inner.withheld).toEqual(["write_file"]);
    expect(inner.guard({ name: "write_file", input: { path: "src/a.ts" } }).allowed).toBe(false);
    expect(inner.guard({ name: "read_file", input: { path: "src/a.ts" } })).toEqual({ allowed: true });
  });

  it("under a conversation's skill: bounded by both", async () => {
    const parent = shelf.session({ message: "anything with files", tools: [...TOOLS, "delegate"] });
    expect(parent.callSkillTool({ id: "a", name: "skill_wide", input: {} })).toMatchObject({
      status: "success",
    });
    const { inner } = await runInSession(parent, nested);
    expect(inner.tools).toEqual(["read_file"]);
    expect(inner.guard({ name: "write_file", input: { path: "src/a.ts" } }).allowed).toBe(false);
  });

  it("a delegation on its own is not narrowed by one that ran before it", async () => {
    await nested();
    const prepared = shelf.prepareDelegation({ role: "writer", task: "write it" }, TOOLS);
    expect((prepared as { data: Delegation }).data.tools).toEqual(["read_file", "write_file"]);
  });
});
