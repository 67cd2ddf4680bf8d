import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDemo } from "./demo.js";
import type { DemoEvent } from "./events.js";
import { FRAMEWORKS } from "./runners/runner.js";
import { WORKSPACE_TEMPLATE } from "./sandbox.js";
import { tell } from "./story.js";

/** A role a user adds: one Markdown file, nothing else. */
const DOCS_WRITER = `---
name: docs-writer
description: Writes and reviews user documentation (READMEs, guides); reads the code it documents, never changes it.
role: true
allowed-tools: read_file list_files
version: 1.0.0
---

You are a documentation writer on a small team. Read the files the task names and report what a
newcomer would need to know, in plain words.
`;

const ASK = "Ask the docs writer to look at README.md and say what a newcomer needs.";
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

const delegations = (events: readonly DemoEvent[]) =>
  events.filter((e): e is Extract<DemoEvent, { type: "delegated" }> => e.type === "delegated");

describe.each(FRAMEWORKS)("a role added as a file (%s)", (framework) => {
  it("joins the team from the workspace template, with no code change", async () => {
    const template = await mkdtemp(join(tmpdir(), "skillshelf-demo-template-"));
    cleanup.push(() => rm(template, { recursive: true, force: true }));
    await cp(WORKSPACE_TEMPLATE, template, { recursive: true });
    await mkdir(join(template, ".skillshelf/skills/roles/docs-writer"), { recursive: true });
    await writeFile(join(template, ".skillshelf/skills/roles/docs-writer/SKILL.md"), DOCS_WRITER);

    const demo = await openDemo({ framework, template });
    cleanup.push(() => demo.close());
    expect(demo.shelf.role("docs-writer")).toMatchObject({
      scope: "project",
      allowedTools: ["read_file", "list_files"],
    });

    const answer = await tell(demo, { thread: "docs", user: ASK });
    expect(delegations(demo.bus.events)).toEqual([
      expect.objectContaining({
        role: "docs-writer",
        tools: expect.arrayContaining(["read_file", "list_files"]),
      }),
    ]);
    expect(delegations(demo.bus.events)[0]?.tools).toHaveLength(2);
    const calls = demo.bus.events.filter((e) => e.type === "tool-call");
    expect(calls).toEqual([
      expect.objectContaining({ agent: "docs-writer", tool: "read_file", args: { path: "README.md" } }),
    ]);
    expect(answer).toContain("Read README.md");
  });

  it("joins a running team on the next message when the file appears in the sandbox", async () => {
    const demo = await openDemo({ framework });
    cleanup.push(() => demo.close());
    expect(demo.shelf.role("docs-writer")).toBeUndefined();

    await mkdir(join(demo.sandbox.dir, ".skillshelf/skills/roles/docs-writer"), { recursive: true });
    await writeFile(join(demo.sandbox.dir, ".skillshelf/skills/roles/docs-writer/SKILL.md"), DOCS_WRITER);
    await tell(demo, { thread: "docs", user: ASK }); // tell() refreshes the shelf first, as before every turn

    expect(delegations(demo.bus.events).map((d) => d.role)).toEqual(["docs-writer"]);
  });
});
