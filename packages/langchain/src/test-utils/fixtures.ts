// Test fixtures: real SKILL.md files in a temp project, an event sink, and a middleware that
// records exactly what each model call was given (after skillshelf changed it).
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createShelf,
  type EventSink,
  type Shelf,
  type ShelfOptions,
  type SkillEvent,
} from "@skillshelf/core";
import { sharedData as sharedDataAt } from "@skillshelf/test-utils";
import { createMiddleware, tool } from "langchain";
import { type Mock, onTestFinished, vi } from "vitest";
import { z } from "zod/v4";

/** The shared test data, resolved from this file so CI clones work (never copied into the repo). */
export const sharedData = sharedDataAt();

export interface Project {
  root: string;
  shelf: Shelf;
  events: SkillEvent[];
  /** Write (or overwrite) `.skillshelf/skills/<name>/SKILL.md`, with a fresh mtime. */
  write(name: string, content: string): Promise<string>;
  close(): Promise<void>;
}

let clock = Date.now() / 1000;

/** A temp project with these skills and a shelf over it (closed and removed after the test). */
export async function project(
  skills: Record<string, string> = {},
  options: ShelfOptions = {},
): Promise<Project> {
  const root = await mkdtemp(join(tmpdir(), "skillshelf-langchain-"));
  const events: SkillEvent[] = [];
  const sink: EventSink = { emit: (event) => events.push(event) };
  const write = async (name: string, content: string) => {
    const dir = join(root, ".skillshelf", "skills", name);
    await mkdir(dir, { recursive: true });
    const file = join(dir, "SKILL.md");
    await writeFile(file, content);
    // Editors always move mtime forward; make sure two writes within one tick do too.
    clock += 2;
    await utimes(file, clock, clock);
    return file;
  };
  for (const [name, content] of Object.entries(skills)) await write(name, content);
  const shelf = await createShelf({
    root,
    userDirs: [],
    events: sink,
    stateDir: join(root, ".state"),
    ...options,
  });
  const opened: Project = {
    root,
    shelf,
    events,
    write,
    async close() {
      await shelf.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  // Each test gets its own project, removed when the test ends (pass or fail).
  onTestFinished(() => opened.close());
  return opened;
}

/** A SKILL.md from frontmatter lines and a body. */
export function skillFile(frontmatter: Record<string, string | boolean | string[]>, body: string): string {
  const lines = Object.entries(frontmatter).map(([key, value]) =>
    Array.isArray(value)
      ? `${key}:\n${value.map((v) => `  - ${JSON.stringify(v)}`).join("\n")}`
      : `${key}: ${value}`,
  );
  return `---\n${lines.join("\n")}\n---\n\n${body}\n`;
}

/** A skill restricted to `read_file`, matched by "pdf report"; its body starts with PDF-BODY. */
export const pdfSkill = skillFile(
  {
    name: "pdf-report",
    description: "Build a PDF report from the user's data.",
    triggers: ["pdf report"],
    "allowed-tools": "read_file",
  },
  "PDF-BODY: read the data with read_file, then lay out the report.",
);

export interface RecordedCall {
  tools: string[];
  system: string;
}

/**
 * Placed after skillsMiddleware (inner), it sees each model request exactly as skillshelf
 * passes it on, i.e. what the model is really given.
 */
export function recorder() {
  const calls: RecordedCall[] = [];
  const middleware = createMiddleware({
    name: "recorder",
    wrapModelCall: (request, handler) => {
      calls.push({
        tools: request.tools.map((t) => String((t as { name?: unknown }).name)),
        system: request.systemMessage.text,
      });
      return handler(request);
    },
  });
  return { calls, middleware };
}

/**
 * Host tools, each with a spy so a test can prove a tool ran or never did. A tool answers
 * "<name> ok", or what `replies` says for it (e.g. an echo whose output the model chooses).
 */
export function spiedTools<const Name extends string>(
  names: readonly Name[],
  replies: Partial<Record<Name, (input: Record<string, unknown>) => string>> = {},
) {
  const spies = Object.fromEntries(names.map((name) => [name, vi.fn()])) as Record<Name, Mock>;
  const tools = names.map((name) =>
    tool(
      (input: Record<string, unknown>) => {
        spies[name](input);
        return replies[name]?.(input) ?? `${name} ok`;
      },
      { name, description: `The ${name} tool.`, schema: z.looseObject({}) },
    ),
  );
  return { tools, spies };
}
