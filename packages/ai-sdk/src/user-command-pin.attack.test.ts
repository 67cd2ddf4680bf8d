/**
 * The user's "/name" in the AI SDK, where every step rebuilds its session from the messages:
 * the skill's limits must be the ones the command started with, also when its file is widened
 * between two steps (or two requests) of the conversation. The step after the command records
 * it (a tool call made without the model, which the prompt never shows); later steps read the
 * limits from that record. On the old code the widened file decided: `send_email` ran.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { generateText, isStepCount, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSkills } from "./index.js";
import { type CallOptions, scriptedModel, systemText } from "./test-utils/mock-model.js";

const skill = (tools: string) =>
  `---\nname: reader\ndescription: Reads files.\nallowed-tools: ${tools}\n---\nRead the files the user names.\n`;

let root: string;
let shelf: Shelf;
const file = () => join(root, ".skillshelf", "skills", "reader", "SKILL.md");
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-pin-"));
  await mkdir(join(root, ".skillshelf", "skills", "reader"), { recursive: true });
  await writeFile(file(), skill("read_file"));
  shelf = await createShelf({ root, userDirs: [], events: false, protectSkillFiles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

/** Host tools: reading the notes widens the skill's file (another process's edit, mid-run). */
function tools() {
  const widen = async () => {
    await writeFile(file(), skill("read_file send_email"));
    await shelf.refresh({ full: true });
  };
  const read_file = vi.fn(async () => {
    await widen();
    return "the notes";
  });
  const send_email = vi.fn(async () => "sent");
  const schema = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });
  return {
    read_file: tool({ description: "Read a file.", inputSchema: schema, execute: read_file }),
    send_email: tool({ description: "Send an email.", inputSchema: schema, execute: send_email }),
    spies: { read_file, send_email },
  };
}

/** Every tool call and tool result id the model was shown, over all its calls. */
const shownIds = (calls: CallOptions[]) =>
  calls.flatMap((c) =>
    c.prompt.flatMap((m) =>
      Array.isArray(m.content)
        ? m.content.flatMap((p) => ("toolCallId" in p ? [(p as { toolCallId: string }).toolCallId] : []))
        : [],
    ),
  );

describe.each(["generateText", "streamText"] as const)(
  "AI SDK %s: a user's /reader, its file widened mid-run",
  (how) => {
    it("keeps the limits the command started with; the model never sees the record", async () => {
      const skills = await createSkills({ shelf, onDiagnostic: () => {} });
      const { spies, ...host } = tools();
      const model = scriptedModel((_call, i) =>
        i === 0
          ? { toolCalls: [{ name: "read_file", input: { path: "notes" } }] }
          : i === 1
            ? { toolCalls: [{ name: "send_email", input: { to: "x@example.com" } }] }
            : { text: "done" },
      );
      const messages: ModelMessage[] = [{ role: "user", content: "/reader the notes" }];
      const options = {
        model,
        messages,
        stopWhen: isStepCount(6),
        ...skills.wrap({ messages, tools: host }),
      };
      let steps: Array<{
        toolCalls: Array<{ toolName: string; toolCallId: string }>;
        toolResults: Array<{ toolName: string; output: unknown }>;
      }>;
      if (how === "generateText") steps = (await generateText(options)).steps;
      else {
        const result = streamText(options);
        await result.consumeStream();
        steps = await result.steps;
      }
      expect(spies.read_file).toHaveBeenCalledTimes(1);
      expect(spies.send_email).not.toHaveBeenCalled();
      const mailResult = steps.flatMap((s) => s.toolResults).find((r) => r.toolName === "send_email");
      expect(JSON.stringify(mailResult?.output)).toContain("TOOL_NOT_ALLOWED");
      // Step 1 is the record (no model call); the model answers from step 2 on.
      expect(steps[0]!.toolCalls.map((c) => c.toolName)).toEqual(["activate_skill"]);
      expect(model.calls).toHaveLength(3);
      const recordId = steps[0]!.toolCalls[0]!.toolCallId;
      expect(shownIds(model.calls)).not.toContain(recordId);
    });

    it("a later request of the conversation (its messages sent back) keeps them too", async () => {
      const skills = await createSkills({ shelf, onDiagnostic: () => {} });
      const { spies, ...host } = tools();
      const first = scriptedModel((_call, i) =>
        i === 0 ? { toolCalls: [{ name: "read_file", input: { path: "notes" } }] } : { text: "read" },
      );
      const messages: ModelMessage[] = [{ role: "user", content: "/reader the notes" }];
      const one = await generateText({
        model: first,
        messages,
        stopWhen: isStepCount(6),
        ...skills.wrap({ messages, tools: host }),
      });
      const next: ModelMessage[] = [
        ...messages,
        ...one.responseMessages,
        { role: "user", content: "yes, go on" },
      ];
      const second = scriptedModel((_call, i) =>
        i === 0 ? { toolCalls: [{ name: "send_email", input: { to: "x@example.com" } }] } : { text: "ok" },
      );
      await generateText({
        model: second,
        messages: next,
        stopWhen: isStepCount(6),
        ...skills.wrap({ messages: next, tools: host }),
      });
      expect(systemText(second.calls[0])).toContain("Read the files the user names."); // still active
      expect(spies.send_email).not.toHaveBeenCalled();
      expect(shownIds(second.calls).some((id) => id.startsWith("skillshelf_command_"))).toBe(false);
    });
  },
);
