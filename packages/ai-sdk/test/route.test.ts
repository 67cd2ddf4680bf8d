/**
 * The App Router example, called the way Next.js calls it: a real `Request` carrying UI
 * messages in, a UI message stream (SSE) out. Only the model is swapped for a mock; the
 * skills are real SKILL.md files and the tools are the example's own.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { convertArrayToReadableStream } from "ai/test";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type Fixture, MARKITDOWN_BODY, skillFixture } from "../src/test-utils/fixtures.js";
import {
  isSkillshelfTool,
  offeredTools,
  type Script,
  scriptedModel,
  systemText,
} from "../src/test-utils/mock-model.js";

const swap = vi.hoisted(() => ({ model: undefined as unknown }));
vi.mock("../examples/app/lib/model.js", () => ({
  get model() {
    return swap.model;
  },
}));

let fixture: Fixture;
let POST: (req: Request) => Promise<Response>;

beforeAll(async () => {
  fixture = await skillFixture();
  const workspace = join(fixture.root, "workspace");
  await mkdir(workspace);
  await writeFile(join(workspace, "notes.md"), "# Q3\nRevenue grew.");
  // The example reads its folders from the environment (defaults: the process's cwd).
  process.env.SKILLSHELF_ROOT = fixture.root;
  process.env.WORKSPACE_DIR = workspace;
  process.env.HOME = fixture.root; // no user-level skills from the machine running the tests
  ({ POST } = await import("../examples/app/api/chat/route.js"));
});
afterAll(async () => {
  // The example's own shelf (one per process) still writes its event log: close it before
  // its folder is removed, or the removal races the last write (ENOTEMPTY).
  const { getSkills } = await import("../examples/app/lib/skills.js");
  await (await getSkills()).shelf.close();
  await fixture.cleanup();
});

async function post(messages: UIMessage[], script: Script) {
  const model = scriptedModel(script);
  swap.model = model;
  const response = await POST(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages }),
    }),
  );
  const chunks = await readSse(response);
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream: convertArrayToReadableStream(chunks) })) message = m;
  return { response, chunks, message: message!, model };
}

async function readSse(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .map((event) => event.replace(/^data: /, "").trim())
    .filter((data) => data !== "" && data !== "[DONE]")
    .map((data) => JSON.parse(data) as UIMessageChunk);
}

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

describeWithSharedData("examples/app/api/chat/route.ts", () => {
  it("streams a skill activation, runs the next step under it, and rebuilds it on the next request", async () => {
    const first = user("u1", "Convert notes.md to clean Markdown for the wiki");
    const { response, chunks, message, model } = await post([first], (call, i) => {
      if (i === 0) {
        const name = offeredTools(call).includes("skill_markitdown") ? "skill_markitdown" : "activate_skill";
        return { toolCalls: [{ name, input: name === "activate_skill" ? { name: "markitdown" } : {} }] };
      }
      if (i === 1) return { toolCalls: [{ name: "read_file", input: { path: "notes.md" } }] };
      return { text: "Here it is: # Q3" };
    });

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(chunks.at(-1)?.type).toBe("finish");

    // Step 1 ran under markitdown: only read_file of the host's tools, body in the instructions.
    expect(offeredTools(model.calls[1]).filter((n) => !isSkillshelfTool(n))).toEqual(["read_file"]);
    expect(systemText(model.calls[1])).toContain(MARKITDOWN_BODY);

    // What the browser ends up with: the activation, the real tool output, the answer.
    const toolParts = message.parts.filter((p) => p.type.startsWith("tool-")) as Array<{
      type: string;
      state: string;
      output?: unknown;
    }>;
    expect(toolParts.map((p) => p.state)).toEqual(["output-available", "output-available"]);
    expect(toolParts[0]?.output).toMatchObject({ status: "success", data: { name: "markitdown" } });
    expect(toolParts[1]).toMatchObject({ type: "tool-read_file", output: "# Q3\nRevenue grew." });
    expect(message.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual([
      "Here it is: # Q3",
    ]);

    // Request 2 carries the history back; a continuation keeps the skill in force from its first step.
    const reply = user("u2", "ok, go ahead with the appendix");
    const next = await post([first, message, reply], () => ({ text: "Only notes.md." }));
    expect(next.response.status).toBe(200);
    const call = next.model.calls[0];
    expect(offeredTools(call)).not.toContain("list_files");
    expect(offeredTools(call)).not.toContain("delegate");
    expect(offeredTools(call)).toContain("read_file");
    expect(offeredTools(call)).toContain("end_skill");
    expect(systemText(call)).toContain(MARKITDOWN_BODY);

    // Request 3: the user ends it with /done, and the tools it hid are back.
    const done = await post([first, message, reply, next.message, user("u3", "/done")], () => ({
      text: "Ended.",
    }));
    const afterDone = done.model.calls[0];
    expect(offeredTools(afterDone)).toEqual(expect.arrayContaining(["list_files", "read_file", "delegate"]));
    expect(offeredTools(afterDone)).not.toContain("end_skill");
    expect(systemText(afterDone)).not.toContain(MARKITDOWN_BODY);
  });
});
