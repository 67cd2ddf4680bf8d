/**
 * A "/name" the user typed that core refuses (a role, a typo) reaches the model as a note in
 * the system message, on every model call of that turn.
 */
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, createAgent, fakeModel, HumanMessage, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { project, recorder, skillFile } from "./test-utils/fixtures.js";

const deploySkill = skillFile(
  { name: "deploy", description: "Deploy the app.", "disable-model-invocation": true },
  "DEPLOY-BODY",
);

const readFile = tool(() => "contents", {
  name: "read_file",
  description: "Read a file.",
  schema: z.looseObject({}),
});

describe.each([
  ["/reviewer check src/auth.ts", "/reviewer", "NOT_USER_INVOCABLE"],
  ["/deplyo prod", "/deplyo", "NOT_FOUND"],
])('a refused "%s"', (command, typed, errorType) => {
  it.each([
    ["without a checkpointer", false],
    ["with a checkpointer", true],
  ])(
    "reaches the model as core's <skill_command_refused> note on every call of the turn (%s)",
    async (_, saved) => {
      const p = await project({ deploy: deploySkill });
      const rec = recorder();
      const agent = createAgent({
        model: fakeModel()
          .respondWithTools([{ name: "read_file", args: { path: "a" }, id: "r1" }])
          .respond(new AIMessage("ok")),
        tools: [readFile],
        middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
        ...(saved && { checkpointer: new MemorySaver() }),
      });
      await agent.invoke({ messages: [new HumanMessage(command)] }, { configurable: { thread_id: "t" } });

      expect(rec.calls).toHaveLength(2);
      for (const call of rec.calls) {
        expect(call.system).toContain(`<skill_command_refused command="${typed}`);
        expect(call.system).toContain(`error_type="${errorType}"`);
      }
      expect(p.events.filter((e) => e.type === "activation-refused")).toHaveLength(1);
    },
  );
});
