/**
 * A call to a tool that does not exist reads core's answer (the conformance suite has the
 * case with an active skill); these are the cases around it that must not change: a real
 * tool's own error stays its own, also once the host leaves that tool out of later steps,
 * and a real skill's tool the step did not register reads a refusal, not "no such tool".
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { generateText, isStepCount, jsonSchema, type ModelMessage, tool } from "ai";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills, type Skills } from "./index.js";
import { type CallOptions, scriptedModel } from "./test-utils/mock-model.js";

const schema = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });
const hostTools = () => ({
  read_file: tool({
    description: "Read a file.",
    inputSchema: schema,
    execute: async (): Promise<{ ok: boolean }> => {
      throw new Error("ENOENT: no such file or directory, open 'notes.md'");
    },
  }),
  send_email: tool({
    description: "Send an e-mail.",
    inputSchema: schema,
    execute: async () => ({ ok: true }),
  }),
});
const toolResults = (call: CallOptions | undefined) =>
  JSON.stringify((call?.prompt ?? []).filter((m) => m.role === "tool").flatMap((m) => m.content));

let root: string;
let shelf: Shelf;
let skills: Skills;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-unknown-"));
  for (const name of ["release-notes", "summarize-diff"]) {
    await mkdir(join(root, ".agents", "skills", name), { recursive: true });
    await writeFile(
      join(root, ".agents", "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${name === "release-notes" ? "Draft release notes from the git log." : "Summarize a diff."}\ntriggers: [${name.replace("-", " ")}]\n---\nDo it.\n`,
    );
  }
  shelf = await createShelf({ root, userDirs: [], events: false });
  skills = await createSkills({ shelf, onDiagnostic: () => {} });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

it("a real tool's error stays its own when the host leaves the tool out of later steps", async () => {
  const model = scriptedModel((_call, i) =>
    i === 0 ? { toolCalls: [{ name: "read_file" }] } : { text: "done" },
  );
  const messages: ModelMessage[] = [{ role: "user", content: "read notes.md" }];
  await generateText({
    model,
    messages,
    stopWhen: isStepCount(3),
    ...skills.wrap({
      messages,
      tools: hostTools(),
      prepareStep: ({ stepNumber }) =>
        stepNumber >= 1 ? { activeTools: ["send_email" as const] } : undefined,
    }),
  });
  expect(toolResults(model.calls[1])).toContain("ENOENT");
  expect(toolResults(model.calls[1])).not.toContain("UNKNOWN_TOOL");
});

it("a real skill's tool the step had not registered reads a refusal that names no other tool", async () => {
  const model = scriptedModel((_call, i) =>
    i === 0 ? { toolCalls: [{ name: "skill_summarize-diff" }] } : { text: "done" },
  );
  const messages: ModelMessage[] = [{ role: "user", content: "draft the release notes" }];
  await generateText({
    model,
    messages,
    stopWhen: isStepCount(3),
    ...skills.wrap({ messages, tools: hostTools() }),
  });
  const seen = toolResults(model.calls[1]);
  expect(seen).toContain("TOOL_NOT_OFFERED");
  expect(seen).not.toContain("send_email");
  expect(seen).not.toContain("Available tools");
});
