/**
 * One session per model call: every hook and every tool call of a response uses the session
 * wrapModelCall opened, so a run of 3 model calls opens 3 sessions, however many calls ran.
 */
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage, tool } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { pdfSkill, project } from "./test-utils/fixtures.js";

const readFile = tool(() => "month,total", {
  name: "read_file",
  description: "Read a file.",
  schema: z.looseObject({}),
});

describe("sessions", () => {
  it.each([
    ["with a checkpointer", true],
    ["without one", false],
  ])("opens at most one per model call (%s): 3 calls, 1 activation, 2 tool calls", async (_, saved) => {
    const p = await project({ "pdf-report": pdfSkill });
    const openSession = vi.spyOn(p.shelf, "openSession");
    const session = vi.spyOn(p.shelf, "session");
    const agent = createAgent({
      model: fakeModel()
        .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
        .respondWithTools([
          { name: "read_file", args: { path: "a.csv" }, id: "r1" },
          { name: "read_file", args: { path: "b.csv" }, id: "r2" },
        ])
        .respond(new AIMessage("done")),
      tools: [readFile],
      middleware: [skillsMiddleware({ shelf: p.shelf })],
      ...(saved && { checkpointer: new MemorySaver() }),
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage("pdf report please")] },
      { configurable: { thread_id: "count" } },
    );

    const results = result.messages.filter((m) => ToolMessage.isInstance(m));
    expect(results.map((m) => m.status)).toEqual(["success", "success", "success"]);
    expect(openSession.mock.calls.length + session.mock.calls.length).toBe(3);
  });
});
