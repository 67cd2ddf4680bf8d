/**
 * Host tools whose names an activation or delegation tool would otherwise take: the host's
 * tool keeps its name and runs as the host's, in every hook and in every rebuilt session.
 */
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage, tool } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { delegateTool } from "./roles.js";
import { STATE_KEY } from "./state.js";
import { pdfSkill, project, type RecordedCall, recorder, skillFile } from "./test-utils/fixtures.js";

const reviewerRole = skillFile(
  { name: "reviewer", description: "Reviews a change.", role: true, "allowed-tools": "read_file" },
  "REVIEWER-INSTRUCTIONS",
);

/** Host tools (spied), including ones named like skillshelf's own tools. */
function hostTools(...extra: string[]) {
  const names = ["read_file", "shell", ...extra];
  const spies = Object.fromEntries(names.map((name) => [name, vi.fn()]));
  const tools = names.map((name) =>
    tool(
      (input: Record<string, unknown>) => {
        spies[name]!(input);
        return `${name} ok`;
      },
      { name, description: `The host's ${name}.`, schema: z.looseObject({}) },
    ),
  );
  return { tools, spies };
}

/** The name pdf-report's activation tool was offered under on this call. */
const alternative = (call: RecordedCall | undefined) =>
  call?.tools.find((name) => name.startsWith("skill_pdf-report_"));

const toolMessage = (messages: unknown[], id: string) =>
  messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.tool_call_id === id);

describe("a host tool named skill_<skill>", () => {
  it("runs as the host's tool; the skill is activatable under its alternative name", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = hostTools("skill_pdf-report");
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "h1" }])
      .respond(
        () =>
          new AIMessage({
            content: "",
            tool_calls: [{ name: alternative(rec.calls[0])!, args: {}, id: "a1", type: "tool_call" }],
          }),
      )
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), rec.middleware],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales")] });

    expect(rec.calls[0]?.tools).toContain("skill_pdf-report");
    expect(alternative(rec.calls[0])).toMatch(/^skill_pdf-report_[0-9a-f]{8}$/);
    // The host's tool ran, and activated nothing.
    expect(host.spies["skill_pdf-report"]).toHaveBeenCalledOnce();
    expect(toolMessage(result.messages, "h1")?.text).toBe("skill_pdf-report ok");
    expect(rec.calls[1]?.system).not.toContain("PDF-BODY");
    expect(rec.calls[1]?.tools).toContain("shell");
    // The alternative name did.
    expect(JSON.parse(toolMessage(result.messages, "a1")!.text)).toMatchObject({ status: "success" });
    expect(rec.calls[2]?.system).toContain("PDF-BODY");
    expect(rec.calls[2]?.tools).not.toContain("shell");
    expect(result[STATE_KEY]?.active.map((a) => a.name)).toEqual(["pdf-report"]);
  });

  it("is never replayed as an activation when a new agent rebuilds the state from the history", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = hostTools("skill_pdf-report");
    // A stateless route: every request builds its agent and middleware and sends the whole history.
    const history = [
      new HumanMessage("Make a pdf report of sales"),
      new AIMessage({
        content: "",
        tool_calls: [{ name: "skill_pdf-report", args: {}, id: "h1", type: "tool_call" }],
      }),
      new ToolMessage({ content: "skill_pdf-report ok", tool_call_id: "h1", name: "skill_pdf-report" }),
      new AIMessage("Here it is."),
      new HumanMessage("thanks, now the totals"),
    ];
    const rec = recorder();
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("ok")),
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), rec.middleware],
    });

    const result = await agent.invoke({ messages: history });

    expect(rec.calls[0]?.system).not.toContain("PDF-BODY");
    expect(rec.calls[0]?.tools).toContain("shell");
    expect(result[STATE_KEY]?.active ?? []).toEqual([]);
    expect(p.events.some((e) => e.type === "activated")).toBe(false);
  });

  it("keeps the state of a checkpointed thread across turns", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = hostTools("skill_pdf-report");
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "h1" }])
      .respond(new AIMessage("one"))
      .respond(new AIMessage("two"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    await agent.invoke({ messages: [new HumanMessage("and the totals")] }, config);
    expect(host.spies["skill_pdf-report"]).toHaveBeenCalledOnce();
    expect(rec.calls[2]?.system).not.toContain("PDF-BODY");
  });
});

describe("a host tool named delegate", () => {
  it("is not replaced: the delegation tool is skillshelf_delegate", async () => {
    const p = await project({ reviewer: reviewerRole });
    const host = hostTools("delegate");
    const sub = fakeModel().respond(new AIMessage("LGTM"));
    const delegation = delegateTool({ shelf: p.shelf, tools: host.tools, model: sub });
    expect(delegation.name).toBe("skillshelf_delegate");

    const lead = fakeModel()
      .respondWithTools([
        { name: "delegate", args: { anything: true }, id: "h1" },
        { name: "skillshelf_delegate", args: { role: "reviewer", task: "Review main.ts" }, id: "d1" },
      ])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model: lead, tools: [delegation, ...host.tools] });
    const result = await agent.invoke({ messages: [new HumanMessage("Get main.ts reviewed")] });

    expect(host.spies.delegate).toHaveBeenCalledOnce();
    expect(toolMessage(result.messages, "h1")?.text).toBe("delegate ok");
    expect(JSON.parse(toolMessage(result.messages, "d1")!.text)).toMatchObject({
      status: "success",
      data: { role: "reviewer", text: "LGTM", tools: ["read_file"] },
    });
  });
});
