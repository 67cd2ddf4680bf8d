/**
 * A memory window (`lastMessages`) shorter than the thread, and a hostile model that reuses
 * the id of an activation call the window no longer holds. `respondingModel` makes a reused
 * id unique against the ids of the prompt Mastra sends, and that prompt is the window: the
 * activation's id is not in it, so the reuse keeps its id. Is that a hole? Mastra's memory
 * keeps the two calls apart (each in its own assistant message, its result inline, stored by
 * message id), and a run's message list holds only the window and the run's own messages, so
 * nothing merges the reused call into the activation: a thread rebuilt from memory still
 * replays the activation and its limits. These tests keep it so.
 *
 * A skill whose activation leaves the window is another matter, documented in the README
 * ("Across turns"): the session rebuilt from the window no longer sees it. So the first run
 * carries the state, as the README says to, and the last one rebuilds from the whole thread.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import { MockMemory } from "@mastra/core/memory";
import { RequestContext } from "@mastra/core/request-context";
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
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-memory-window-"));
  await mkdir(join(root, ".agents", "skills", "notes"), { recursive: true });
  await writeFile(
    join(root, ".agents", "skills", "notes", "SKILL.md"),
    "---\nname: notes\ndescription: Keep meeting notes in files.\ntriggers: [meeting notes]\nallowed-tools: read_file\n---\nWrite the notes.\n",
  );
  // "session": the skill lasts until it is ended, so the chatter between does not end it.
  shelf = await createShelf({
    root,
    userDirs: [],
    scope: "session",
    events: { emit: (event) => events.push(event) },
  });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const resultsOf = (view: ModelView | undefined, name: string) =>
  view?.messages.filter((m) => m.role === "tool" && m.name === name) ?? [];

describe.each(["generate", "stream"] as const)("agent.%s()", (mode) => {
  it("a call reusing the id of an activation outside the memory window is refused, and the thread rebuilt from memory keeps the activation", async () => {
    const views: ModelView[] = [];
    const sent: unknown[] = [];
    const script: ModelReply[] = [
      { calls: [{ id: "act", name: "skill_notes" }] },
      { text: "Noted." },
      { text: "Sure." },
      { text: "Sure." },
      // The activation's id, which the window (and so the prompt) no longer holds.
      { calls: [{ id: "act", name: "send_email", input: { to: "boss" } }] },
      { text: "I can't." },
      { calls: [{ id: "later", name: "send_email", input: { to: "boss" } }] },
      { text: "I can't." },
    ];
    let next = 0;
    const memory = new MockMemory();
    const skills = createSkills({ shelf, onDiagnostic: () => undefined });
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
        send_email: looseTool("send_email", "Send an email.", async (input) => {
          sent.push(input);
          return { sent: true };
        }),
      },
      inputProcessors: [skills.processor],
      memory,
    });
    const carried = new RequestContext();
    carried.set("skillshelf", {} as never);
    const send = async (user: string, options: { lastMessages: number; requestContext?: RequestContext }) => {
      const { lastMessages, ...rest } = options;
      const call = {
        memory: { thread: "t", resource: "r", options: { lastMessages } },
        maxSteps: 5,
        ...rest,
      };
      if (mode === "generate") await agent.generate(user, call);
      else await (await agent.stream(user, call)).text;
    };
    for (const user of ["take meeting notes", "thanks", "and?", "send it to my boss"])
      await send(user, { lastMessages: 2, requestContext: carried });

    // The reusing call's prompt: the window, without the activation.
    const reuse = views[4];
    expect(
      reuse?.messages.some((m) => m.role === "assistant" && m.calls?.some((c) => c.name === "skill_notes")),
    ).toBe(false);
    expect(resultsOf(views[5], "send_email")[0]).toMatchObject({
      result: { status: "error", error_type: "TOOL_NOT_ALLOWED" },
    });

    // Memory holds both calls under the id, apart, each with its own result.
    const { messages } = (await memory.recall({
      threadId: "t",
      resourceId: "r",
      threadConfig: { lastMessages: 100 },
    } as never)) as { messages: MastraDBMessage[] };
    const calls = messages.flatMap((m) =>
      (m.content.parts ?? []).flatMap((p) => (p.type === "tool-invocation" ? [p.toolInvocation] : [])),
    );
    expect(calls.filter((c) => c.toolCallId === "act").map((c) => c.toolName)).toEqual([
      "skill_notes",
      "send_email",
    ]);
    expect(calls.find((c) => c.toolName === "skill_notes")).toMatchObject({
      state: "result",
      result: { status: "success" },
    });

    // A run without the state, on the whole thread: the activation is replayed, its limits hold.
    await send("again please", { lastMessages: 100 });
    expect(views[6]?.system).toContain('<skill_content name="notes">');
    expect(views[6]?.tools.map((t) => t.name)).not.toContain("send_email");
    expect(resultsOf(views[7], "send_email").at(-1)).toMatchObject({
      result: { status: "error", error_type: "TOOL_NOT_ALLOWED" },
    });
    expect(sent).toEqual([]);
    expect(events.filter((e) => e.type === "tool-blocked")).toHaveLength(2);
  });
});
