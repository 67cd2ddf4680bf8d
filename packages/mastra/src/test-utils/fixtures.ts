/**
 * A temp project with real SKILL.md files from the shared corpus plus a few written for
 * the behaviours the corpus lacks (disable-model-invocation, a role), and host tools
 * whose `execute` is a spy.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { sharedData } from "@skillshelf/test-utils";
import { vi } from "vitest";
import { z } from "zod";

/** ../shared/data beside the repo (CI clones the repo elsewhere with shared/ next to it). */
export const SHARED_DATA = sharedData();

const CORPUS = {
  "review-contract": "skills-corpus/anthropics--knowledge-work-plugins/small-business/skills/review-contract",
  markitdown: "skills-corpus/K-Dense-AI--claude-scientific-skills/scientific-skills/markitdown",
};

const WRITTEN: Record<string, string> = {
  "rename-symbol": `---
name: rename-symbol
description: Rename a symbol across the codebase, safely and consistently.
triggers: [rename]
disable-model-invocation: true
argument-hint: <old> <new>
allowed-tools: Read Edit
---
Rename every occurrence of $0 to $1. Read each file before you edit it.
`,
  researcher: `---
name: researcher
description: Finds and summarises sources on the web for a question.
role: true
allowed-tools: [WebFetch, web_search]
---
You are a careful researcher. Search, read the sources, and answer with citations.
`,
};

export interface Project {
  root: string;
  shelf: Shelf;
  cleanup(): Promise<void>;
}

export async function createProject(extra: Record<string, string> = {}): Promise<Project> {
  const root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-"));
  const skills = join(root, ".skillshelf", "skills");
  for (const [name, from] of Object.entries(CORPUS))
    await cp(join(SHARED_DATA, from), join(skills, name), { recursive: true });
  for (const [name, text] of Object.entries({ ...WRITTEN, ...extra })) {
    await mkdir(join(skills, name), { recursive: true });
    await writeFile(join(skills, name, "SKILL.md"), text);
  }
  const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
  return {
    root,
    shelf,
    async cleanup() {
      await shelf.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Host tools named as the corpus skills expect them, each with a spy for `execute`. */
export function hostTools() {
  const tool = (id: string) => {
    const spy = vi.fn(async (input: unknown) => ({ tool: id, input }));
    return {
      spy,
      tool: createTool({
        id,
        description: `The ${id} tool.`,
        inputSchema: z.object({}).passthrough(),
        execute: spy,
      }),
    };
  };
  const all = {
    Read: tool("Read"),
    Write: tool("Write"),
    Edit: tool("Edit"),
    Bash: tool("Bash"),
    WebFetch: tool("WebFetch"),
    web_search: tool("web_search"),
  };
  const tools = Object.fromEntries(Object.entries(all).map(([name, t]) => [name, t.tool]));
  const spies = Object.fromEntries(Object.entries(all).map(([name, t]) => [name, t.spy])) as Record<
    keyof typeof all,
    (typeof all)[keyof typeof all]["spy"]
  >;
  return { tools, spies };
}
