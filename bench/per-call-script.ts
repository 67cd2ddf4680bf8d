/**
 * What the per-call benchmark gives each framework alike: the host tools (names, schemas, a
 * trivial body, so a tool call costs the framework's own work and nothing else), the
 * conversation a route receives, and the scripted model's answers. Each framework file
 * (per-call-langchain.ts, per-call-ai-sdk.ts, per-call-mastra.ts) turns these into its own
 * tools, its own mock model class and its own agent call.
 */
import type { Shelf } from "@skillshelf/core";
import { z } from "zod";

/** One model answer: text (ends the run) or tool calls (the framework runs them, then calls again). */
export type Step = { text: string } | { calls: Array<{ name: string; input: Record<string, unknown> }> };

/** A route's `messages`: an earlier exchange, then the new request. */
export type Conversation = ReadonlyArray<{ role: "user" | "assistant"; text: string }>;

export interface Harness {
  /** One run (a user turn): the framework calls the model until it answers text; `script` is what it answers. */
  turn(conversation: Conversation, script: readonly Step[]): Promise<void>;
}

/** A framework file's export: the bare agent without a shelf, the agent with the adapter (defaults) with one. */
export type CreateHarness = (shelf: Shelf | undefined) => Promise<Harness>;

export interface HostTool {
  name: string;
  description: string;
  schema: z.ZodObject;
  run: (input: Record<string, unknown>) => string;
}

const pathInput = z.object({ path: z.string().describe("File path, relative to the project root.") });

/** A coding assistant's usual tools (the names core's default aliases and read tools know). */
export const HOST_TOOLS: readonly HostTool[] = [
  { name: "read_file", description: "Read a file.", schema: pathInput, run: () => "file contents" },
  {
    name: "write_file",
    description: "Write a file.",
    schema: z.object({ path: z.string(), content: z.string() }),
    run: () => "written",
  },
  {
    name: "edit_file",
    description: "Replace text in a file.",
    schema: z.object({ path: z.string(), old: z.string(), new: z.string() }),
    run: () => "edited",
  },
  { name: "ls", description: "List a folder.", schema: pathInput, run: () => "a.md\nb.md" },
  {
    name: "grep",
    description: "Search files for a pattern.",
    schema: z.object({ pattern: z.string(), path: z.string().optional() }),
    run: () => "a.md:1: match",
  },
  {
    name: "execute",
    description: "Run a shell command.",
    schema: z.object({ command: z.string() }),
    run: () => "exit 0",
  },
  {
    name: "web_search",
    description: "Search the web.",
    schema: z.object({ query: z.string() }),
    run: () => "no results",
  },
];

export const HOST_TOOL_NAMES = HOST_TOOLS.map((t) => t.name);

/** The conversation a route gets for a new request: one earlier exchange and the request. */
export function conversationFor(request: string): Conversation {
  return [
    { role: "user", text: "Hi, I am working on our project today." },
    { role: "assistant", text: "Hello! What would you like to do?" },
    { role: "user", text: request },
  ];
}

/** A queue the mock model answers from: `load` before a run, `next` on each model call. */
export function scriptQueue() {
  let steps: Step[] = [];
  return {
    load(script: readonly Step[]) {
      steps = [...script];
    },
    next(): Step {
      return steps.shift() ?? { text: "(end of script)" };
    },
  };
}
