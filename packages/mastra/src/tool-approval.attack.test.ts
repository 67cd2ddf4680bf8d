/**
 * `requireToolApproval`: Mastra suspends the run before each call and resumes it when the
 * caller approves. A call that the same response's activation rules out must still read
 * core's refusal when it is approved and resumed (a host tool never runs; a client tool is
 * not handed over): the approval is the caller's, the whitelist the skill's.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { InMemoryStore } from "@mastra/core/storage";
import { createShelf, type Shelf, type SkillEvent } from "@skillshelf/core";
import type { ModelReply } from "@skillshelf/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { mastraModel } from "./test-utils/driver.js";
import { looseTool } from "./test-utils/tools.js";

let root: string;
let shelf: Shelf;
let events: SkillEvent[];
beforeEach(async () => {
  events = [];
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-approval-"));
  await mkdir(join(root, ".agents", "skills", "notes"), { recursive: true });
  await writeFile(
    join(root, ".agents", "skills", "notes", "SKILL.md"),
    "---\nname: notes\ndescription: Keep meeting notes in files.\nallowed-tools: read_file\n---\nWrite the notes.\n",
  );
  shelf = await createShelf({ root, userDirs: [], events: { emit: (event) => events.push(event) } });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

interface Output {
  finishReason?: string;
  runId?: string;
  suspendPayload?: { toolCallId?: string };
  toolResults?: Array<{ payload?: { toolCallId?: string; result?: unknown } }>;
}

describe.each(["send_email", "share"] as const)("an approved call of %s", (tool) => {
  it("that the response's own activation rules out reads TOOL_NOT_ALLOWED after approval", async () => {
    const ran: unknown[] = [];
    const script: ModelReply[] = [
      {
        calls: [
          { id: "a1", name: "skill_notes" },
          { id: "c1", name: tool, input: { to: "boss" } },
        ],
      },
      { text: "Done." },
    ];
    let next = 0;
    const skills = createSkills({ shelf, onDiagnostic: () => undefined });
    const agent = new Agent({
      id: "a",
      name: "a",
      instructions: "Help.",
      model: mastraModel(() => script[next++] ?? { text: "done" }),
      tools: {
        read_file: looseTool("read_file", "Read a file.", async () => ({ text: "x" })),
        send_email: looseTool("send_email", "Send an email.", async (input) => {
          ran.push(input);
          return { sent: true };
        }),
        // A client tool: no `execute`, Mastra hands its calls to the caller.
        share: looseTool("share", "Share (runs in the client)."),
      },
      inputProcessors: [skills.processor],
    });
    const mastra = new Mastra({ agents: { a: agent }, storage: new InMemoryStore(), logger: false });
    const a = mastra.getAgent("a");
    const first = (await a.generate("take meeting notes", {
      maxSteps: 4,
      requireToolApproval: true,
    })) as Output;
    let out = first;
    const approved: string[] = [];
    for (let i = 0; i < 3 && out.finishReason === "suspended"; i++) {
      const toolCallId = out.suspendPayload?.toolCallId;
      approved.push(String(toolCallId));
      out = (await a.approveToolCallGenerate({
        runId: first.runId!,
        ...(toolCallId && { toolCallId }),
      })) as Output;
    }
    expect(approved).toEqual(["a1", "c1"]);
    expect(out.finishReason).toBe("stop");
    expect(out.toolResults?.find((r) => r.payload?.toolCallId === "c1")?.payload?.result).toMatchObject({
      status: "error",
      error_type: "TOOL_NOT_ALLOWED",
    });
    expect(ran).toEqual([]);
    expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
  });
});

describe("an approved client call refused for its input (no skill active)", () => {
  const refused = {
    id: "w1",
    name: "write_file",
    input: { path: ".agents/skills/notes/SKILL.md", content: "x" },
  };
  const allowed = { id: "w0", name: "write_file", input: { path: "notes/meeting.md", content: "x" } };
  for (const [label, calls] of [
    ["alone", [refused]],
    ["after an allowed call of the same tool", [allowed, refused]],
    ["before an allowed call of the same tool", [refused, allowed]],
  ] as const) {
    it(`${label}: reads SKILL_FILES_PROTECTED after approval, not handed over`, async () => {
      const script: ModelReply[] = [{ calls: [...calls] }, { text: "Done." }];
      let next = 0;
      const skills = createSkills({ shelf, onDiagnostic: () => undefined });
      const agent = new Agent({
        id: "a",
        name: "a",
        instructions: "Help.",
        model: mastraModel(() => script[next++] ?? { text: "done" }),
        tools: {
          write_file: looseTool("write_file", "Write a file (runs in the client)."),
        },
        inputProcessors: [skills.processor],
      });
      const mastra = new Mastra({ agents: { a: agent }, storage: new InMemoryStore(), logger: false });
      const a = mastra.getAgent("a");
      const first = (await a.generate("hello", { maxSteps: 4, requireToolApproval: true })) as Output;
      expect(first.finishReason).toBe("suspended");
      let out = first;
      for (let i = 0; i < 3 && out.finishReason === "suspended"; i++) {
        const toolCallId = out.suspendPayload?.toolCallId;
        out = (await a.approveToolCallGenerate({
          runId: first.runId!,
          ...(toolCallId && { toolCallId }),
        })) as Output;
      }
      expect(out.toolResults?.find((r) => r.payload?.toolCallId === "w1")?.payload?.result).toMatchObject({
        status: "error",
        error_type: "SKILL_FILES_PROTECTED",
      });
    });
  }
});
