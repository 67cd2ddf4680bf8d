/**
 * Tool names a hostile model makes up, through the AI SDK's own tool loop under an active
 * whitelist: names of Object.prototype's members, look-alikes of a hidden tool. Every one must
 * read core's answer (or a refusal), name no hidden tool, and run nothing.
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
let sent = 0;
const hostTools = () => ({
  git_log: tool({
    description: "Show the git log.",
    inputSchema: schema,
    execute: async () => ({ log: "v1" }),
  }),
  send_email: tool({
    description: "Send an e-mail.",
    inputSchema: schema,
    execute: async () => {
      sent++;
      return { ok: true };
    },
  }),
});
const toolResults = (call: CallOptions | undefined) =>
  JSON.stringify((call?.prompt ?? []).filter((m) => m.role === "tool").flatMap((m) => m.content));

let root: string;
let shelf: Shelf;
let skills: Skills;
beforeEach(async () => {
  sent = 0;
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-tricks-"));
  await mkdir(join(root, ".agents", "skills", "release-notes"), { recursive: true });
  await writeFile(
    join(root, ".agents", "skills", "release-notes", "SKILL.md"),
    "---\nname: release-notes\ndescription: Draft release notes from the git log.\ntriggers: [release notes]\nallowed-tools: git_log\n---\nDo it.\n",
  );
  shelf = await createShelf({ root, userDirs: [], events: false });
  skills = await createSkills({ shelf, onDiagnostic: () => {} });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

for (const name of [
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "Send_Email",
  "send_email\u200B",
]) {
  it(`${JSON.stringify(name)} after the activation: nothing runs, the answer names no hidden tool`, async () => {
    const model = scriptedModel((_call, i) =>
      i === 0
        ? { toolCalls: [{ name: "skill_release-notes" }] }
        : i === 1
          ? { toolCalls: [{ name, input: { to: "x@evil" } }] }
          : { text: "done" },
    );
    const messages: ModelMessage[] = [{ role: "user", content: "draft the release notes" }];
    let thrown: unknown;
    try {
      await generateText({
        model,
        messages,
        stopWhen: isStepCount(4),
        ...skills.wrap({ messages, tools: hostTools() }),
      });
    } catch (error) {
      thrown = error;
    }
    expect(sent).toBe(0);
    // The SDK's loop must not break on the name (a crash is a denial of the turn, not a hole).
    expect(String(thrown ?? "")).not.toContain("send_email");
    // The model's own name is echoed back (JSON-escaped); nothing else may name the hidden tool.
    const seen = toolResults(model.calls[2]).split(JSON.stringify(name).slice(1, -1)).join("<echo>");
    expect(seen).toContain("UNKNOWN_TOOL");
    expect(seen).not.toContain("send_email");
    expect(seen).not.toContain("Available tools");
  });
}
