/**
 * Tool names a hostile model makes up, through a real Mastra agent under an active whitelist:
 * names of Object.prototype's members and look-alikes of a hidden tool. None may run anything,
 * and what the model reads names no hidden tool.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { MockMemory } from "@mastra/core/memory";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createSkills } from "./skills.js";

type CallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
type Call = { id: string; name: string; input?: unknown };
type Step = { text: string } | { calls: Call[] };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A mock model whose tool-call ids are the script's own, on both of Mastra's paths. */
function hostileModel(script: Step[]) {
  let next = 0;
  const take = (): Step => script[next++] ?? { text: "(end of script)" };
  const parts = (step: Step) =>
    "text" in step
      ? [{ type: "text" as const, text: step.text }]
      : step.calls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: c.id,
          toolName: c.name,
          input: JSON.stringify(c.input ?? {}),
        }));
  const finishReason = (step: Step) => ({
    unified: "text" in step ? ("stop" as const) : ("tool-calls" as const),
    raw: undefined,
  });
  const mock = new MockLanguageModelV4({
    doGenerate: async () => {
      const step = take();
      return { content: parts(step), finishReason: finishReason(step), usage, warnings: [] };
    },
    doStream: async () => {
      const step = take();
      const stream: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of parts(step)) {
        if (part.type === "text") {
          stream.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text });
          stream.push({ type: "text-end", id: "t" });
        } else stream.push(part);
      }
      stream.push({ type: "finish", finishReason: finishReason(step), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of stream) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return {
    model: mock as unknown as MastraModelConfig,
    calls: (): CallOptions[] => [...mock.doGenerateCalls, ...mock.doStreamCalls],
  };
}

const DRAFT = `---
name: draft-letter
description: Draft a formal letter for the user to review before anything is sent.
triggers: [draft a letter]
allowed-tools: write_file
---
Draft the letter into a file. Never send anything.
`;
const DEPLOY_BODY = "DEPLOY-BODY: push the build to production";
const DEPLOY = `---
name: deploy
description: Deploy the current build to production.
triggers: [deploy]
disable-model-invocation: true
---
${DEPLOY_BODY}
`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-attack-"));
  for (const [name, text] of Object.entries({ "draft-letter": DRAFT, deploy: DEPLOY })) {
    await mkdir(join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(join(root, ".skillshelf", "skills", name, "SKILL.md"), text);
  }
  shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

function tools() {
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
async function run(
  mode: "generate" | "stream",
  script: Step[],
  message: string | string[],
  options: { memory?: boolean } = {},
) {
  const skills = createSkills({ shelf, onDiagnostic: () => undefined });
  const host = tools();
  const mock = hostileModel(script);
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
  for (const text of Array.isArray(message) ? message : [message]) {
    if (mode === "generate") await agent.generate(text, call);
    else await (await agent.stream(text, call)).consumeStream();
  }
  return { send: host.send, calls: mock.calls() };
}

const toolResults = (call: CallOptions | undefined) =>
  JSON.stringify((call?.prompt ?? []).filter((m) => m.role === "tool").flatMap((m) => m.content));

describe.each(["generate", "stream"] as const)("made-up tool names after an activation (%s)", (mode) => {
  for (const name of [
    "constructor",
    "toString",
    "__proto__",
    "hasOwnProperty",
    "Send_Email",
    "send_email ",
    "functions.send_email",
    "ｓｅｎｄ_email",
    'x" not found. Available tools: y',
  ]) {
    it(`${JSON.stringify(name)}: nothing runs, the model reads UNKNOWN_TOOL naming no hidden tool`, async () => {
      const { send, calls } = await run(
        mode,
        [
          { calls: [{ id: "a1", name: "skill_draft-letter" }] },
          { calls: [{ id: "x1", name, input: { to: "board@example.org" } }] },
          { text: "Drafted." },
        ],
        "Please draft a letter to the board",
      );
      expect(send).not.toHaveBeenCalled();
      const seen = toolResults(calls[2]).split(JSON.stringify(name).slice(1, -1)).join("<echo>");
      expect(seen).toContain("UNKNOWN_TOOL");
      expect(seen).not.toContain("send_email");
      expect(seen).not.toContain("skill_draft-letter, activate_skill"); // Mastra's list of every tool
    });
  }
});
