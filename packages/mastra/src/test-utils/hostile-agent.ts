/**
 * The set-up the Mastra attack tests share: a shelf in a temp folder with a skill whose
 * whitelist hides `send_email` and a user-only skill, the host's tools (one of them echoes
 * what the model chose), and a real Mastra agent run on a hostile script, with or without
 * memory, on either of Mastra's paths.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { MockMemory } from "@mastra/core/memory";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { afterEach, beforeEach, vi } from "vitest";
import { z } from "zod";
import { createSkills } from "../skills.js";
import { type ScriptStep, scriptedModel } from "./model.js";

export const DRAFT = `---
name: draft-letter
description: Draft a formal letter for the user to review before anything is sent.
triggers: [draft a letter]
allowed-tools: write_file
---
Draft the letter into a file. Never send anything.
`;
export const DEPLOY_BODY = "DEPLOY-BODY: push the build to production";
export const DEPLOY = `---
name: deploy
description: Deploy the current build to production.
triggers: [deploy]
disable-model-invocation: true
---
${DEPLOY_BODY}
`;

/** Registers the test file's hooks; the returned object's fields are the current test's. */
export function useHostileShelf(): { root: string; shelf: Shelf } {
  const current = {} as { root: string; shelf: Shelf };
  beforeEach(async () => {
    current.root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-attack-"));
    for (const [name, text] of Object.entries({ "draft-letter": DRAFT, deploy: DEPLOY })) {
      await mkdir(join(current.root, ".skillshelf", "skills", name), { recursive: true });
      await writeFile(join(current.root, ".skillshelf", "skills", name, "SKILL.md"), text);
    }
    current.shelf = await createShelf({
      root: current.root,
      userDirs: [],
      builtinRoles: false,
      events: false,
    });
  });
  afterEach(async () => {
    await current.shelf.close();
    await rm(current.root, { recursive: true, force: true });
  });
  return current;
}

export function hostTools() {
  const send = vi.fn(async () => ({ sent: true }));
  const make = (id: string, execute: (input: Record<string, unknown>) => Promise<unknown>) =>
    createTool({ id, description: `The ${id} tool.`, inputSchema: z.object({}).passthrough(), execute });
  return {
    send,
    tools: {
      send_email: make("send_email", send),
      write_file: make("write_file", async () => ({ written: true })),
      // A tool whose output the model chooses (an echo, a search result, a file it wrote).
      echo: make("echo", async (input) => (input as { text?: string }).text ?? ""),
    },
  };
}

/** Each message is one run of the agent; with `memory`, the runs share one thread. */
export async function runHostile(
  shelf: Shelf,
  mode: "generate" | "stream",
  script: ScriptStep[],
  message: string | string[],
  options: { memory?: boolean; beforeRun?: (index: number) => Promise<void> } = {},
) {
  const skills = createSkills({ shelf, onDiagnostic: () => undefined });
  const host = hostTools();
  const mock = scriptedModel(script);
  const agent = new Agent({
    id: "a",
    name: "a",
    instructions: "Help.",
    model: mock.model,
    tools: host.tools,
    inputProcessors: [skills.processor],
    ...(options.memory && { memory: new MockMemory() }),
  });
  const call = {
    maxSteps: 4,
    ...(options.memory && { memory: { thread: "attack-thread", resource: "attacker" } }),
  };
  for (const [index, text] of (Array.isArray(message) ? message : [message]).entries()) {
    await options.beforeRun?.(index);
    if (mode === "generate") await agent.generate(text, call);
    else await (await agent.stream(text, call)).consumeStream();
  }
  return { send: host.send, calls: mock.calls() };
}
