/**
 * Role agents built ahead (`createRoleAgents`) prepare a delegation from the role's file on
 * every run, so a role the user narrows on disk is narrowed from the next run on, with no
 * rebuild. Held on 9bbb19e; kept as a guard beside LangChain's fix for the same case.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createRoleAgents } from "./roles.js";
import { scriptedModel } from "./test-utils/model.js";

const builder = (tools: string) => `---
name: builder
description: Implements a change.
role: true
allowed-tools: ${tools}
---
Make the change.
`;

let root: string;
let file: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-role-reload-"));
  await mkdir(join(root, ".skillshelf", "skills", "builder"), { recursive: true });
  file = join(root, ".skillshelf", "skills", "builder", "SKILL.md");
  await writeFile(file, builder("read_file write_file"));
  shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

describe("a Mastra role agent built ahead, its role narrowed on disk", () => {
  it("does not write on the run after the edit", async () => {
    const write = vi.fn(async () => "written");
    const tools = {
      read_file: createTool({
        id: "read_file",
        description: "Read.",
        inputSchema: z.object({}).passthrough(),
        execute: async () => "read",
      }),
      write_file: createTool({
        id: "write_file",
        description: "Write.",
        inputSchema: z.object({}).passthrough(),
        execute: write,
      }),
    };
    const model = scriptedModel([
      { calls: [["write_file", { path: "out.txt", content: "x" }]] },
      { text: "Done." },
      { calls: [["write_file", { path: "out.txt", content: "y" }]] },
      { text: "Done." },
    ]);
    const agents = createRoleAgents(shelf, { model: model.model, tools, onDiagnostic: () => undefined });
    await agents.builder!.generate("Make the change", { maxSteps: 3 });
    expect(write).toHaveBeenCalledTimes(1);

    await writeFile(file, builder("read_file"));
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    await shelf.refresh();
    await agents.builder!.generate("Make it again", { maxSteps: 3 });
    expect(write).toHaveBeenCalledTimes(1);
  });
});
