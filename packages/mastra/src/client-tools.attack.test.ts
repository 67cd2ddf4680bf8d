/**
 * Client tools (no `execute`, the agent's or the call's `clientTools`): Mastra hands their
 * calls to the caller to run. Under a skill whose whitelist leaves one out, a model that
 * called it anyway had its call handed over: the whitelist did not hold. It must read core's
 * refusal, and the run must go on instead of stopping for the client.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { createShelf, type Shelf, type SkillEvent } from "@skillshelf/core";
import type { ModelReply, ModelView } from "@skillshelf/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { mastraModel } from "./test-utils/driver.js";
import { looseTool } from "./test-utils/tools.js";

let root: string;
let shelf: Shelf;
let events: SkillEvent[];
beforeEach(async () => {
  events = [];
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-client-tools-"));
  await mkdir(join(root, ".agents", "skills", "notes"), { recursive: true });
  await writeFile(
    join(root, ".agents", "skills", "notes", "SKILL.md"),
    "---\nname: notes\ndescription: Keep meeting notes in files.\ntriggers: [meeting notes]\nallowed-tools: read_file confirm\n---\nWrite the notes.\n",
  );
  shelf = await createShelf({ root, userDirs: [], events: { emit: (event) => events.push(event) } });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const clientTool = (id: string) => looseTool(id, `The ${id} tool (runs in the client).`);

async function run(mode: "generate" | "stream", script: ModelReply[], where: "agent" | "call") {
  const views: ModelView[] = [];
  let next = 0;
  const skills = createSkills({ shelf, onDiagnostic: () => undefined });
  const client = {
    pay_invoice: clientTool("pay_invoice"),
    confirm: clientTool("confirm"),
    write_file: clientTool("write_file"),
  };
  const agent = new Agent({
    id: "a",
    name: "a",
    instructions: "Help.",
    model: mastraModel((view) => {
      views.push(view);
      return script[next++] ?? { text: "done" };
    }),
    tools: {
      read_file: looseTool("read_file", "Read a file.", async () => ({ text: "x" })),
      ...(where === "agent" && client),
    },
    inputProcessors: [skills.processor],
  });
  const options = { maxSteps: 5, ...(where === "call" && { clientTools: client }) };
  if (mode === "generate") {
    const result = await agent.generate("take meeting notes", options);
    return {
      views,
      finishReason: result.finishReason,
      handedOver: handedOver(result),
      results: results(result),
    };
  }
  const stream = await agent.stream("take meeting notes", options);
  await stream.text;
  const last = { toolCalls: await stream.toolCalls, toolResults: await stream.toolResults };
  return {
    views,
    finishReason: await stream.finishReason,
    handedOver: handedOver(last),
    results: results(last),
  };
}

interface CallChunk {
  payload?: { toolCallId?: string; toolName?: string; args?: unknown; result?: unknown };
}
/** The last step's calls left without a result: the ones Mastra handed to the caller. */
function handedOver(result: { toolCalls?: unknown; toolResults?: unknown }) {
  const answered = new Set(((result.toolResults ?? []) as CallChunk[]).map((r) => r.payload?.toolCallId));
  return ((result.toolCalls ?? []) as CallChunk[])
    .filter((c) => !answered.has(c.payload?.toolCallId))
    .map((c) => ({ name: c.payload?.toolName, input: c.payload?.args }));
}

/** The last step's tool results, in order. */
const results = (result: { toolResults?: unknown }) =>
  ((result.toolResults ?? []) as CallChunk[]).map((r) => ({
    name: r.payload?.toolName,
    result: r.payload?.result,
  }));

const resultOf = (view: ModelView | undefined, name: string) =>
  view?.messages.find((m) => m.role === "tool" && m.name === name);

describe.each(["generate", "stream"] as const)("agent.%s()", (mode) => {
  describe.each(["agent", "call"] as const)("client tools of the %s", (where) => {
    it("a client tool the skill hides reads TOOL_NOT_ALLOWED; the run is not stopped for the client", async () => {
      const { views, finishReason } = await run(
        mode,
        [{ calls: [{ name: "skill_notes" }] }, { calls: [{ name: "pay_invoice", input: { amount: 1000 } }] }],
        where,
      );
      expect(finishReason).toBe("stop");
      expect(resultOf(views[2], "pay_invoice")).toMatchObject({
        result: { status: "error", error_type: "TOOL_NOT_ALLOWED" },
      });
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
    });

    it("a client tool the skill allows is handed over as ever", async () => {
      const { finishReason } = await run(
        mode,
        [
          { calls: [{ name: "skill_notes" }] },
          { calls: [{ name: "confirm", input: { question: "Save?" } }] },
        ],
        where,
      );
      expect(finishReason).toBe("tool-calls");
    });

    it("a client tool called in the activation's own response is not handed over: it reads TOOL_NOT_ALLOWED", async () => {
      const { views, finishReason } = await run(
        mode,
        [{ calls: [{ name: "skill_notes" }, { name: "pay_invoice", input: { amount: 1000 } }] }],
        where,
      );
      expect(finishReason).toBe("stop");
      expect(views.length).toBeGreaterThanOrEqual(2);
      // What the AI SDK's model reads for the same response, and LangChain's (no client tools there).
      expect(resultOf(views[1], "pay_invoice")).toMatchObject({
        result: { status: "error", error_type: "TOOL_NOT_ALLOWED" },
      });
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
    });

    it("an allowed client tool in the activation's own response is handed over", async () => {
      const { finishReason } = await run(
        mode,
        [{ calls: [{ name: "skill_notes" }, { name: "confirm", input: { question: "Save?" } }] }],
        where,
      );
      expect(finishReason).toBe("tool-calls");
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(0);
    });

    it("a client call refused for its input (a write into a skill folder) is not handed over: it reads why", async () => {
      const { views, finishReason } = await run(
        mode,
        [{ calls: [{ name: "write_file", input: { path: ".agents/skills/notes/SKILL.md", content: "x" } }] }],
        where,
      );
      expect(finishReason).toBe("stop");
      expect(resultOf(views[1], "write_file")).toMatchObject({
        result: { status: "error", error_type: "SKILL_FILES_PROTECTED" },
      });
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
    });

    // Mastra decides whether to hand a call over by the tool's `execute` alone, read by name with
    // no call id (tools.ts, refusedClientTools). A refused call's own refusal stays until that
    // call is answered, so it is never handed over; a call of the tool read before then cannot be
    // told from it, and is judged again: CLIENT_TOOL_NOT_RUN (fail closed, the model may call again).
    const intoSkill = { name: "write_file", input: { path: ".agents/skills/notes/SKILL.md", content: "x" } };
    const elsewhere = { name: "write_file", input: { path: "notes/meeting.md", content: "y" } };
    const writes = (v: ModelView | undefined) =>
      v?.messages.filter((m) => m.role === "tool" && m.name === "write_file") ?? [];

    // Was "the other is handed over": on Mastra 1.58 (the floor) the refused call was then
    // handed to the client too, with no result. Neither is, in either order.
    it("a refused client call, then an allowed call of the same tool: the refused one reads why, neither is handed over", async () => {
      const { views, finishReason, handedOver } = await run(mode, [{ calls: [intoSkill, elsewhere] }], where);
      expect(handedOver).toEqual([]);
      expect(finishReason).toBe("stop");
      const results = writes(views[1]);
      expect(results).toHaveLength(2);
      expect(results[0]).toMatchObject({ result: { status: "error", error_type: "SKILL_FILES_PROTECTED" } });
      expect(JSON.stringify(results[1])).toContain("was not handed over on this step");
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
    });

    it("an allowed client call, then a refused call of the same tool: neither is handed over (fail closed)", async () => {
      const { views, finishReason, handedOver } = await run(mode, [{ calls: [elsewhere, intoSkill] }], where);
      expect(handedOver).toEqual([]);
      expect(finishReason).toBe("stop");
      const results = writes(views[1]);
      expect(results).toHaveLength(2);
      expect(JSON.stringify(results[0])).toContain("was not handed over on this step");
      expect(results[1]).toMatchObject({ result: { status: "error", error_type: "SKILL_FILES_PROTECTED" } });
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(1);
    });

    // end_skill's limits hold until the user's next message: a client tool the skill hides,
    // called beside (or after) the end in one turn, is refused as a host tool would be.
    it("a client tool the skill hides, called in the same response as end_skill, is not handed over", async () => {
      const { views, finishReason, handedOver } = await run(
        mode,
        [
          { calls: [{ name: "skill_notes" }] },
          { calls: [{ name: "end_skill" }, { name: "pay_invoice", input: { amount: 1000 } }] },
        ],
        where,
      );
      expect(handedOver).toEqual([]);
      expect(finishReason).toBe("stop");
      expect(resultOf(views[2], "pay_invoice")).toMatchObject({
        result: { status: "error", error_type: "TOOL_NOT_ALLOWED" },
      });
    });

    it("with no skill active, every client tool is handed over", async () => {
      const { finishReason } = await run(
        mode,
        [{ calls: [{ name: "pay_invoice", input: { amount: 5 } }] }],
        where,
      );
      expect(finishReason).toBe("tool-calls");
      expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(0);
    });
  });
});
