/**
 * Real SKILL.md files in a temp dir, a shelf over them, and host tools whose `execute`
 * are spies. One skill comes verbatim from the shared corpus (markitdown, whose
 * `allowed-tools: Read Write Edit Bash` goes through core's default aliases), the others
 * exercise the fields the adapter must honour.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf, type SkillEvent } from "@skillshelf/core";
import { sharedData as sharedDataAt } from "@skillshelf/test-utils";
import { jsonSchema, type Tool, tool } from "ai";
import { vi } from "vitest";

/** `<repo>/../shared/data`, resolved from this file so it works wherever the repo is cloned. */
export const sharedData = sharedDataAt();
const MARKITDOWN = join(
  sharedData,
  "skills-corpus/K-Dense-AI--claude-scientific-skills/scientific-skills/markitdown/SKILL.md",
);

/** A phrase only the markitdown body contains: proves the body reached the model. */
export const MARKITDOWN_BODY = "MarkItDown - File to Markdown Conversion";
export const FACT_CHECKER_BODY = "You check one claim at a time";

const written: Record<string, string> = {
  "release-notes": `---
name: release-notes
description: Draft release notes from the git log since the last tag, grouped into features, fixes and breaking changes.
when_to_use: The user asks for release notes, a changelog entry or "what changed since vX".
triggers:
  - release notes
  - changelog
exclusions:
  - commit message
allowed-tools: git_log read_file
version: 1.0.0
---

# Release notes

1. Find the last tag with \`git_log\`.
2. Group the commits into Features, Fixes and Breaking changes.
`,
  "batch-rename": `---
name: batch-rename
description: Rename many files at once following a pattern the user gives, after showing the full plan.
disable-model-invocation: true
argument-hint: "<glob> <pattern>"
arguments: [glob, pattern]
allowed-tools: list_files rename_file
---

# Batch rename

Rename the files matching \`$glob\` using the pattern \`$pattern\`.
Show the complete old → new table before renaming anything.
`,
  "fact-checker": `---
name: fact-checker
description: Verifies factual claims against web sources and reports what holds up.
role: true
allowed-tools: web_search
model: checker-model
---

${FACT_CHECKER_BODY}: search for it, read two independent sources, and answer
"supported", "contradicted" or "unclear" with the links.
`,
};

export interface Fixture {
  root: string;
  shelf: Shelf;
  /** Every event the shelf emitted, in order. */
  events: SkillEvent[];
  cleanup(): Promise<void>;
}

export async function skillFixture(extra: Record<string, string> = {}): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-"));
  const skillsDir = join(root, ".agents", "skills");
  await mkdir(join(skillsDir, "markitdown"), { recursive: true });
  await copyFile(MARKITDOWN, join(skillsDir, "markitdown", "SKILL.md"));
  for (const [name, content] of Object.entries({ ...written, ...extra })) {
    await mkdir(join(skillsDir, name), { recursive: true });
    await writeFile(join(skillsDir, name, "SKILL.md"), content);
  }
  const events: SkillEvent[] = [];
  const shelf = await createShelf({ root, userDirs: [], events: { emit: (event) => events.push(event) } });
  return {
    root,
    shelf,
    events,
    cleanup: async () => {
      await shelf.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

const anyObject = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });

/** Host tools named like real ones; every `execute` is a spy that records its calls. */
export function hostTools() {
  const make = (name: string) => {
    const execute = vi.fn(async (input: Record<string, unknown>) => ({ ok: true, tool: name, input }));
    return tool({ description: `The ${name} tool.`, inputSchema: anyObject, execute });
  };
  const names = [
    "read_file",
    "write_file",
    "bash",
    "web_search",
    "send_email",
    "git_log",
    "list_files",
    "rename_file",
  ];
  return Object.fromEntries(names.map((name) => [name, make(name)])) as Record<
    string,
    Tool<Record<string, unknown>, unknown> & { execute: ReturnType<typeof vi.fn> }
  >;
}

export const HOST_TOOL_NAMES = [
  "bash",
  "git_log",
  "list_files",
  "read_file",
  "rename_file",
  "send_email",
  "web_search",
  "write_file",
];
