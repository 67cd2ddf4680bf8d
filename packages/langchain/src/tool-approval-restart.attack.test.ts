/**
 * LangChain's human-in-the-loop middleware interrupts a run before a call runs, and the caller
 * may resume it from another process (a new agent, new middleware, the same checkpointer, a
 * `Command({ resume })`). The call then runs in a process that never saw the response: it must
 * still be judged as if that response's activation had happened (the middleware reopens the
 * response's session from the checkpointed thread), and an allowed call must still run.
 */
import { Command, MemorySaver } from "@langchain/langgraph";
import type { Shelf } from "@skillshelf/core";
import { AIMessage, createAgent, fakeModel, HumanMessage, humanInTheLoopMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { project, spiedTools } from "./test-utils/fixtures.js";

const NOTES =
  "---\nname: notes\ndescription: Keep meeting notes in files.\nallowed-tools: read_file\n---\nWrite the notes.\n";

const response = (...calls: Array<[id: string, name: string, args: Record<string, unknown>]>) =>
  new AIMessage({
    content: "",
    tool_calls: calls.map(([id, name, args]) => ({ id, name, args, type: "tool_call" as const })),
  });

/**
 * Runs `reply` with the run stopped before each call of `ask` (humanInTheLoopMiddleware),
 * then approves from a new "process": a new model, middleware and agent on the same
 * checkpointer. Returns the resumed run's result.
 */
async function approvedAfterRestart(
  shelf: Shelf,
  tools: ReturnType<typeof spiedTools>["tools"],
  ask: string,
  reply: AIMessage,
) {
  const checkpointer = new MemorySaver();
  const config = { configurable: { thread_id: "t1" } };
  const agentIn = (model: ReturnType<typeof fakeModel>) =>
    createAgent({
      model,
      tools,
      checkpointer,
      middleware: [
        skillsMiddleware({ shelf, onDiagnostic: () => {} }),
        humanInTheLoopMiddleware({ interruptOn: { [ask]: true } }),
      ],
    });
  const interrupted = await agentIn(fakeModel().respond(reply)).invoke(
    { messages: [new HumanMessage("take meeting notes")] },
    config,
  );
  expect(JSON.stringify(interrupted)).toContain("__interrupt__");
  const restarted = agentIn(fakeModel().respond(new AIMessage("Done.")));
  return restarted.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
}

describe("a call approved after a restart (humanInTheLoopMiddleware, one checkpointer)", () => {
  it.each([
    [
      "send_email, which the same response's activation rules out, is refused and never runs",
      "send_email",
      false,
    ],
    ["read_file, which the skill allows, runs", "read_file", true],
  ] as const)("%s", async (_, tool, runs) => {
    const p = await project({ notes: NOTES });
    const host = spiedTools(["read_file", "send_email"]);
    const result = await approvedAfterRestart(
      p.shelf,
      host.tools,
      tool,
      response(["a1", "skill_notes", {}], ["c1", tool, { to: "boss" }]),
    );
    const answer = result.messages.find(
      (m) => m.getType() === "tool" && (m as { tool_call_id?: string }).tool_call_id === "c1",
    );
    if (runs) {
      expect(host.spies[tool]).toHaveBeenCalledOnce();
      expect(answer?.text).toBe(`${tool} ok`);
    } else {
      expect(host.spies[tool]).not.toHaveBeenCalled();
      expect(answer?.text).toContain("TOOL_NOT_ALLOWED");
      // The reopened session knows the agent's tools, as the one that planned the response did.
      expect(answer?.text).toContain("the tools you may use are read_file");
    }
  });

  it("a host tool named like skillshelf's (activate_skill) stays the host's after the restart", async () => {
    const p = await project({ notes: NOTES });
    const host = spiedTools(["read_file", "activate_skill"]);
    const result = await approvedAfterRestart(
      p.shelf,
      host.tools,
      "activate_skill",
      response(["h1", "activate_skill", { name: "notes" }]),
    );
    expect(host.spies.activate_skill).toHaveBeenCalledOnce();
    const answer = result.messages.find((m) => m.getType() === "tool");
    expect(answer?.text).toBe("activate_skill ok");
  });
});
