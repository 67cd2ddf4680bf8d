/**
 * A client call without a call id. The provider interface types `toolCallId` as a string,
 * but nothing at run time makes a model (or a provider's parser) send one, and Mastra runs
 * a call without it. Core's refusal of such a call, for its input or by the same response's
 * activation, could not be filed under its id for the tool's late `execute` to answer: the
 * tool kept no `execute`, and Mastra handed the refused call to the client. It must read
 * core's refusal instead.
 */
import { Agent } from "@mastra/core/agent";
import type { Shelf } from "@skillshelf/core";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { oneSkillShelf } from "./test-utils/one-skill-shelf.js";
import { looseTool } from "./test-utils/tools.js";

let shelf: Shelf;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ shelf, close } = await oneSkillShelf(
    "skillshelf-mastra-client-no-id-",
    "notes",
    "---\nname: notes\ndescription: Keep meeting notes in files.\nallowed-tools: read_file\n---\nWrite the notes.\n",
  ));
});
afterEach(() => close());

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

type Part = { type: "tool-call"; toolCallId?: string; toolName: string; input: string };

/** A model whose first response is `calls` (the id left out where the test leaves it out), then text. */
function model(calls: Part[]) {
  let step = 0;
  const finish = (calls: boolean) => ({
    unified: calls ? ("tool-calls" as const) : ("stop" as const),
    raw: undefined,
  });
  return new MockLanguageModelV4({
    doGenerate: async () =>
      step++ === 0
        ? { content: calls as never, finishReason: finish(true), usage, warnings: [] }
        : { content: [{ type: "text", text: "ok" }], finishReason: finish(false), usage, warnings: [] },
    doStream: async () => {
      const first = step++ === 0;
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            if (first) for (const call of calls) controller.enqueue(call as never);
            else {
              controller.enqueue({ type: "text-start", id: "t" });
              controller.enqueue({ type: "text-delta", id: "t", delta: "ok" });
              controller.enqueue({ type: "text-end", id: "t" });
            }
            controller.enqueue({ type: "finish", finishReason: finish(first), usage });
            controller.close();
          },
        }),
      };
    },
  });
}

interface Chunk {
  payload?: { toolCallId?: string; toolName?: string; result?: unknown };
}

async function run(mode: "generate" | "stream", calls: Part[]) {
  const skills = createSkills({ shelf, onDiagnostic: () => undefined });
  const agent = new Agent({
    id: "a",
    name: "a",
    instructions: "Help.",
    model: model(calls) as never,
    tools: {
      read_file: looseTool("read_file", "Read a file.", async () => ({ text: "x" })),
      write_file: looseTool("write_file", "Write a file (runs in the client)."),
    },
    inputProcessors: [skills.processor],
  });
  if (mode === "generate") {
    const result = await agent.generate("take meeting notes", { maxSteps: 3 });
    return {
      finishReason: result.finishReason,
      steps: result.steps as unknown as Array<{ toolResults: Chunk[] }>,
    };
  }
  const stream = await agent.stream("take meeting notes", { maxSteps: 3 });
  await stream.text;
  return {
    finishReason: await stream.finishReason,
    steps: (await stream.steps) as unknown as Array<{ toolResults: Chunk[] }>,
  };
}

const write = (path: string): Part => ({
  type: "tool-call",
  toolName: "write_file",
  input: JSON.stringify({ path, content: "x" }),
});
const writeResults = (steps: Array<{ toolResults: Chunk[] }>) =>
  steps.flatMap((s) => s.toolResults ?? []).filter((r) => r.payload?.toolName === "write_file");

describe.each(["generate", "stream"] as const)("agent.%s()", (mode) => {
  it("a client call without an id, refused for its input, is not handed over: it reads SKILL_FILES_PROTECTED", async () => {
    const { finishReason, steps } = await run(mode, [write(".agents/skills/notes/SKILL.md")]);
    expect(finishReason).toBe("stop");
    expect(writeResults(steps).map((r) => r.payload?.result)).toMatchObject([
      { status: "error", error_type: "SKILL_FILES_PROTECTED" },
    ]);
  });

  it("a client call without an id, in the response of the activation that rules it out, reads TOOL_NOT_ALLOWED", async () => {
    const { finishReason, steps } = await run(mode, [
      { type: "tool-call", toolCallId: "a1", toolName: "skill_notes", input: "{}" },
      write("notes/meeting.md"),
    ]);
    expect(finishReason).toBe("stop");
    expect(writeResults(steps).map((r) => r.payload?.result)).toMatchObject([
      { status: "error", error_type: "TOOL_NOT_ALLOWED" },
    ]);
  });

  it("a client call without an id that core allows is handed over", async () => {
    const { finishReason, steps } = await run(mode, [write("notes/meeting.md")]);
    expect(finishReason).toBe("tool-calls");
    expect(writeResults(steps)).toEqual([]);
  });
});

/**
 * A call whose id is the key an id-less refusal is filed under (`\u0000<tool>`): before the fix
 * it took that refusal for itself (the entry went with it), and the id-less call it belonged
 * to, reached next, found no refusal left and was handed over to the client.
 */
describe.each(["generate", "stream"] as const)("agent.%s(), an id forging the id-less key", (mode) => {
  const forged = (path: string): Part => ({ ...write(path), toolCallId: "\u0000write_file" });

  for (const order of ["forged first", "id-less first"] as const) {
    it(`${order}: the refused id-less call is not handed over`, async () => {
      const refused = write(".agents/skills/notes/SKILL.md");
      const allowed = forged("notes/meeting.md");
      const { steps } = await run(mode, order === "forged first" ? [allowed, refused] : [refused, allowed]);
      const results = writeResults(steps);
      // Both calls are answered (none is left for the client): the refused one with its refusal.
      expect(results).toHaveLength(2);
      const mine = results.find((r) => r.payload?.toolCallId !== "\u0000write_file");
      expect(mine?.payload?.result).toMatchObject({ status: "error", error_type: "SKILL_FILES_PROTECTED" });
    });
  }
});

/** Ids a model picks to confuse the refusals: an empty one, one shared with an allowed call, one shaped like a renamed repeat. */
describe.each(["generate", "stream"] as const)("agent.%s(), a refused call beside an allowed one", (mode) => {
  for (const [refusedId, allowedId] of [
    ["", ""],
    ["x", "x"],
    ["x_2", "x"],
    ["", undefined],
  ] as const) {
    for (const order of ["refused first", "allowed first"] as const) {
      it(`ids ${JSON.stringify(refusedId)} and ${JSON.stringify(allowedId ?? null)}, ${order}: the refused one reads its refusal`, async () => {
        const refused = { ...write(".agents/skills/notes/SKILL.md"), toolCallId: refusedId };
        const allowed = { ...write("notes/a.md"), ...(allowedId !== undefined && { toolCallId: allowedId }) };
        const { steps } = await run(
          mode,
          order === "refused first" ? [refused, allowed] : [allowed, refused],
        );
        const protectedResults = writeResults(steps).filter(
          (r) =>
            (r.payload?.result as { error_type?: string } | undefined)?.error_type ===
            "SKILL_FILES_PROTECTED",
        );
        expect(protectedResults).toHaveLength(1);
      });
    }
  }
});
