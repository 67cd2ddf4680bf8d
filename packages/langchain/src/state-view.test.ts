/**
 * LangChain cuts the middleware's state out of the agent state before every model call. It
 * must do that through the one zod v3 view state.ts made, not by building (and zod compiling)
 * a new schema per call; if a LangChain version stops taking that path, this says so.
 */
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, createAgent, fakeModel, HumanMessage, tool } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { hookViewSchema, STATE_KEY } from "./state.js";
import { pdfSkill, project } from "./test-utils/fixtures.js";

const readFile = tool(() => "month,total", {
  name: "read_file",
  description: "Read a file.",
  schema: z.looseObject({}),
});

describe("the state a model call sees", () => {
  it("is read through the middleware's own view on every model call, the stored state in it", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const agent = createAgent({
      model: fakeModel()
        .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
        .respondWithTools([{ name: "read_file", args: { path: "a.csv" }, id: "r1" }])
        .respond(new AIMessage("done"))
        .respond(new AIMessage("again")),
      tools: [readFile],
      middleware: [skillsMiddleware({ shelf: p.shelf })],
      checkpointer: new MemorySaver(),
    });
    const parse = vi.spyOn(hookViewSchema, "parse");
    const thread = { configurable: { thread_id: "view" } };

    const first = await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, thread);
    expect(parse).toHaveBeenCalledTimes(3);
    expect(first[STATE_KEY]?.active.map((a) => a.name)).toEqual(["pdf-report"]);

    // Resumed from the checkpoint: the view hands the model call the state the thread stored.
    await agent.invoke({ messages: [new HumanMessage("and once more")] }, thread);
    expect(parse).toHaveBeenCalledTimes(4);
    const seen = parse.mock.results.at(-1)?.value as Record<string, { active: { name: string }[] }>;
    expect(seen[STATE_KEY]?.active.map((a) => a.name)).toEqual(["pdf-report"]);
  });
});
