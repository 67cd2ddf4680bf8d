/**
 * A host tool without `execute` is one the host's client runs: the SDK hands its calls to the
 * host (`toolCalls`, the UI stream) instead of running them, so no `execute` can guard them.
 * Under a skill whose whitelist leaves such a tool out, a model that calls it anyway had its
 * call handed to the client to run: the whitelist did not hold. It must read core's refusal,
 * and the call must reach the host only as a failed one.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf, type SkillEvent } from "@skillshelf/core";
import { generateText, isStepCount, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills, type Skills } from "./index.js";
import { type CallOptions, scriptedModel, type Turn } from "./test-utils/mock-model.js";

const schema = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });
const hostTools = () => ({
  read_file: tool({ description: "Read a file.", inputSchema: schema, execute: async () => ({ text: "x" }) }),
  // Run by the host's client (no execute): the SDK hands its calls over.
  pay_invoice: tool({ description: "Pay an invoice (runs in the client).", inputSchema: schema }),
  confirm: tool({ description: "Ask the user to confirm (runs in the client).", inputSchema: schema }),
});
const resultParts = (call: CallOptions | undefined) =>
  (call?.prompt ?? []).filter((m) => m.role === "tool").flatMap((m) => m.content);

let root: string;
let shelf: Shelf;
let skills: Skills;
let events: SkillEvent[];
beforeEach(async () => {
  events = [];
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-client-tools-"));
  await mkdir(join(root, ".agents", "skills", "notes"), { recursive: true });
  await writeFile(
    join(root, ".agents", "skills", "notes", "SKILL.md"),
    "---\nname: notes\ndescription: Keep meeting notes in files.\ntriggers: [meeting notes]\nallowed-tools: read_file confirm\n---\nWrite the notes.\n",
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
  const messages: ModelMessage[] = [{ role: "user", content: "take meeting notes" }];
  const options = { model, messages, stopWhen: isStepCount(5), ...skills.wrap({ tools: hostTools() }) };
  if (mode === "generate") {
    const result = await generateText(options);
    return { model, finishReason: result.finishReason, toolCalls: result.toolCalls };
  }
  const result = streamText(options);
  await result.consumeStream();
  return { model, finishReason: await result.finishReason, toolCalls: await result.toolCalls };
}

const handedOver = (toolCalls: ReadonlyArray<{ toolName: string; invalid?: boolean }>, name: string) =>
  toolCalls.filter((c) => c.toolName === name && !c.invalid);

describe.each(["generate", "stream"] as const)("%sText", (mode) => {
  it("a client tool the skill hides reads TOOL_NOT_ALLOWED and never reaches the client as a call to run", async () => {
    const { model, finishReason, toolCalls } = await run(mode, [
      { toolCalls: [{ name: "skill_notes" }] },
      { toolCalls: [{ name: "pay_invoice", input: { amount: 1000 } }] },
    ]);
    expect(handedOver(toolCalls, "pay_invoice")).toEqual([]);
    expect(finishReason).toBe("stop");
    const answer = resultParts(model.calls[2]).find(
      (p) => p.type === "tool-result" && p.toolName === "pay_invoice",
    );
    expect(answer?.type === "tool-result" && answer.output).toEqual({
      type: "json",
      value: expect.objectContaining({ status: "error", error_type: "TOOL_NOT_ALLOWED" }),
    });
    expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
  });

  it("in the activation's own response too", async () => {
    const { model, toolCalls } = await run(mode, [
      { toolCalls: [{ name: "pay_invoice", input: { amount: 1000 } }, { name: "skill_notes" }] },
    ]);
    expect(handedOver(toolCalls, "pay_invoice")).toEqual([]);
    expect(JSON.stringify(resultParts(model.calls[1]))).toContain("TOOL_NOT_ALLOWED");
  });

  it("a client tool the skill allows is handed over as ever", async () => {
    const { finishReason, toolCalls } = await run(mode, [
      { toolCalls: [{ name: "skill_notes" }] },
      { toolCalls: [{ name: "confirm", input: { question: "Save?" } }] },
    ]);
    expect(finishReason).toBe("tool-calls");
    expect(handedOver(toolCalls, "confirm")).toHaveLength(1);
  });

  it("with no skill active, every client tool is handed over", async () => {
    const { finishReason, toolCalls } = await run(mode, [
      { toolCalls: [{ name: "pay_invoice", input: { amount: 5 } }] },
    ]);
    expect(finishReason).toBe("tool-calls");
    expect(handedOver(toolCalls, "pay_invoice")).toHaveLength(1);
    expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(0);
  });
});
