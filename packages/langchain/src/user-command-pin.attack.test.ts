/**
 * The user's "/name" in LangChain without a checkpointer: the host sends the messages back on
 * the next invoke, and the session is rebuilt from them. The skill's limits must be those the
 * command started with, not the file's after an edit that widened it. The first model call
 * after the command records it (an AIMessage made without the model, left out of every
 * request the model gets). On the old code the widened file decided: `send_email` ran.
 */
import {
  AIMessage,
  type BaseMessage,
  createAgent,
  createMiddleware,
  fakeModel,
  HumanMessage,
} from "langchain";
import { describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { STATE_KEY } from "./state.js";
import { pdfSkill, project, spiedTools } from "./test-utils/fixtures.js";

const call = (name: string, args: Record<string, unknown>, id: string) =>
  new AIMessage({ content: "", tool_calls: [{ id, name, args, type: "tool_call" as const }] });

describe("LangChain without a checkpointer: a user's /pdf-report, its file widened between invokes", () => {
  it("keeps the limits the command started with; the model never sees the record", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = spiedTools(["read_file", "send_email"]);
    const seen: BaseMessage[][] = [];
    const model = fakeModel()
      .respond(call("read_file", { path: "sales.csv" }, "c1"))
      .respond(new AIMessage("Read it."))
      .respond(call("send_email", { to: "x@example.org" }, "c2"))
      .respond(new AIMessage("done"));
    // Inner to skillsMiddleware: sees each request as the model gets it.
    const watch = createMiddleware({
      name: "watch",
      wrapModelCall: (request, handler) => {
        seen.push(request.messages);
        return handler(request);
      },
    });
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), watch],
    });
    const first = await agent.invoke({ messages: [new HumanMessage("/pdf-report the sales")] });
    await p.write(
      "pdf-report",
      pdfSkill.replace("allowed-tools: read_file", "allowed-tools: read_file send_email"),
    );
    await p.shelf.refresh({ full: true });
    // No checkpointer: only the messages travel.
    const second = await agent.invoke({ messages: [...first.messages, new HumanMessage("yes, go on")] });
    expect(second[STATE_KEY]?.active?.map((a) => a.name)).toEqual(["pdf-report"]);
    expect(host.spies.send_email).not.toHaveBeenCalled();
    expect(second.messages.map((m) => m.text).some((t) => t.includes("TOOL_NOT_ALLOWED"))).toBe(true);
    const record = first.messages.find(
      (m) => AIMessage.isInstance(m) && m.tool_calls?.[0]?.id?.startsWith("skillshelf_command_"),
    );
    expect(record).toBeDefined();
    expect(seen.length).toBe(4);
    const shown = JSON.stringify(seen.map((list) => list.map((m) => [m.text, (m as AIMessage).tool_calls])));
    expect(shown).not.toContain("skillshelf_command_");
  });
});
