/**
 * A hidden host tool (one the active skill leaves out) called with input its own zod schema
 * rejects. The SDK checks a call's input before `execute`: unguarded, the model read the SDK's
 * InvalidToolInputError, which lists the hidden tool's fields and their types, and the guard
 * never saw the call. It must read core's TOOL_NOT_ALLOWED, on both of the SDK's paths; a tool
 * the skill allows keeps the SDK's own check.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf, type SkillEvent } from "@skillshelf/core";
import { asSchema, generateText, isStepCount, type ModelMessage, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkills, type Skills } from "./index.js";
import { type CallOptions, scriptedModel, type Turn } from "./test-utils/mock-model.js";

let ran: string[] = [];
const emailSchema = z.object({ to: z.string().email(), subject: z.string(), confidential_bcc: z.string() });
const hostTools = () => ({
  git_log: tool({
    description: "Show the git log.",
    inputSchema: z.object({ since: z.string() }),
    execute: async () => {
      ran.push("git_log");
      return { log: "v1" };
    },
  }),
  send_email: tool({
    description: "Send an e-mail.",
    inputSchema: emailSchema,
    execute: async () => {
      ran.push("send_email");
      return { ok: true };
    },
  }),
});
const toolResults = (call: CallOptions | undefined) =>
  (call?.prompt ?? []).filter((m) => m.role === "tool").flatMap((m) => m.content);
const resultOf = (call: CallOptions | undefined, id: number) =>
  JSON.stringify(toolResults(call).filter((part) => part.type === "tool-result")[id]?.output);

let root: string;
let shelf: Shelf;
let skills: Skills;
let events: SkillEvent[];
beforeEach(async () => {
  ran = [];
  events = [];
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-hidden-input-"));
  await mkdir(join(root, ".agents", "skills", "release-notes"), { recursive: true });
  await writeFile(
    join(root, ".agents", "skills", "release-notes", "SKILL.md"),
    "---\nname: release-notes\ndescription: Draft release notes from the git log.\ntriggers: [release notes]\nallowed-tools: git_log\n---\nDo it.\n",
  );
  shelf = await createShelf({ root, userDirs: [], events: { emit: (event) => events.push(event) } });
  skills = await createSkills({ shelf, onDiagnostic: () => {} });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

async function run(mode: "generate" | "stream", script: Turn[]) {
  const model = scriptedModel((_call, i) => script[i] ?? { text: "done" });
  const messages: ModelMessage[] = [{ role: "user", content: "draft the release notes" }];
  const options = { model, messages, stopWhen: isStepCount(5), ...skills.wrap({ tools: hostTools() }) };
  if (mode === "generate") await generateText(options);
  else await streamText(options).consumeStream();
  return model;
}

describe.each(["generate", "stream"] as const)("%sText", (mode) => {
  it("after the activation: a wrong type and no input read TOOL_NOT_ALLOWED, naming none of its fields", async () => {
    const model = await run(mode, [
      { toolCalls: [{ name: "skill_release-notes" }] },
      {
        toolCalls: [
          { name: "send_email", input: { to: 5 } },
          { name: "send_email" },
          { name: "git_log", input: { since: "v1" } },
        ],
      },
    ]);
    expect(ran).toEqual(["git_log"]);
    const seen = JSON.stringify(toolResults(model.calls[2]));
    expect(resultOf(model.calls[2], 1)).toContain("TOOL_NOT_ALLOWED");
    expect(resultOf(model.calls[2], 2)).toContain("TOOL_NOT_ALLOWED");
    for (const field of ["subject", "confidential_bcc", "invalid_type", "Invalid input"]) {
      expect(seen).not.toContain(field);
    }
    // Judged by the guard, so recorded as a blocked call like any other.
    expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(2);
  });

  it("in the activation's own response: the call beside it is judged under it", async () => {
    const model = await run(mode, [
      { toolCalls: [{ name: "send_email", input: { to: 5 } }, { name: "skill_release-notes" }] },
    ]);
    expect(ran).toEqual([]);
    expect(resultOf(model.calls[1], 0)).toContain("TOOL_NOT_ALLOWED");
    expect(JSON.stringify(toolResults(model.calls[1]))).not.toContain("confidential_bcc");
  });

  it("a tool the skill allows keeps the SDK's own check: bad input never reaches it", async () => {
    const model = await run(mode, [
      { toolCalls: [{ name: "skill_release-notes" }] },
      { toolCalls: [{ name: "git_log", input: { since: 3 } }] },
    ]);
    expect(ran).toEqual([]);
    expect(resultOf(model.calls[2], 1)).toContain("Invalid input for tool git_log");
  });

  it("with no skill active, the SDK's check is the tool's as ever", async () => {
    const model = await run(mode, [{ toolCalls: [{ name: "send_email", input: { to: "not an address" } }] }]);
    expect(ran).toEqual([]);
    expect(resultOf(model.calls[1], 0)).toContain("Invalid input for tool send_email");
  });
});

it("the provider is sent each host tool's own schema", async () => {
  const model = await run("generate", [{ text: "hi" }]);
  const sent = (model.calls[0]?.tools ?? []).find((t) => t.name === "send_email");
  expect(sent?.type === "function" && sent.inputSchema).toEqual(await asSchema(emailSchema).jsonSchema);
});
