/**
 * A role agent the host built ahead with `createRoleAgent` and runs itself (not through the
 * delegation tool) is the model too: its role's `allowed-tools` are the only tools it may
 * call — also when host middleware brings more — each call meets the shelf's write
 * protection, and, run inside a conversation's tool call, that conversation's limits.
 */
import { runInSession } from "@skillshelf/core/adapter";
import { AIMessage, createMiddleware, fakeModel, HumanMessage, ToolMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { createRoleAgent, delegateTool } from "./roles.js";
import { pdfSkill, project, skillFile, spiedTools } from "./test-utils/fixtures.js";

const builderRole = skillFile(
  {
    name: "builder",
    description: "Implements a change.",
    role: true,
    "allowed-tools": "read_file write_file",
  },
  "BUILDER-INSTRUCTIONS: make the change.",
);

const hostTools = () => spiedTools(["read_file", "write_file", "send_email"]);

function toolResults(messages: unknown[]): Record<string, unknown>[] {
  return messages
    .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
    .map((m) => JSON.parse(String(m.content)) as Record<string, unknown>);
}

describe("a role agent built ahead and run by the host", () => {
  it("refuses a write into a skill folder, as a delegated one does", async () => {
    const p = await project({ builder: builderRole });
    const host = hostTools();
    const model = fakeModel()
      .respondWithTools([
        { name: "write_file", args: { path: ".skillshelf/skills/evil/SKILL.md", content: "x" }, id: "w1" },
      ])
      .respond(new AIMessage("done"));
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model });

    const result = await agent.invoke({ messages: [new HumanMessage("Add a skill")] });

    expect(host.spies.write_file).not.toHaveBeenCalled();
    expect(toolResults(result.messages)[0]).toMatchObject({ error_type: "SKILL_FILES_PROTECTED" });
  });

  it("refuses a tool its role does not allow, also one that host middleware adds", async () => {
    const p = await project({ builder: builderRole });
    const host = hostTools();
    const sendEmail = host.tools.find((t) => t.name === "send_email")!;
    const model = fakeModel()
      .respondWithTools([{ name: "send_email", args: { to: "x@example.org" }, id: "e1" }])
      .respond(new AIMessage("done"));
    const agent = createRoleAgent("builder", {
      shelf: p.shelf,
      tools: host.tools,
      model,
      middleware: [createMiddleware({ name: "host-extras", tools: [sendEmail] })],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("Tell the team")] });

    expect(host.spies.send_email).not.toHaveBeenCalled();
    expect(toolResults(result.messages)[0]).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });
  });

  it("run inside a conversation's tool call, stays inside that conversation's active skills", async () => {
    const p = await project({ builder: builderRole, "pdf-report": pdfSkill });
    const host = hostTools();
    const parent = p.shelf.session({ message: "make a pdf report", tools: ["read_file", "write_file"] });
    expect(parent.callSkillTool({ id: "a", name: "skill_pdf-report", input: {} })).toMatchObject({
      status: "success",
    });
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { path: "out.txt", content: "x" }, id: "w1" }])
      .respond(new AIMessage("done"));
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model });

    const result = await runInSession(parent, () =>
      agent.invoke({ messages: [new HumanMessage("Write out.txt")] }),
    );

    expect(host.spies.write_file).not.toHaveBeenCalled();
    expect(toolResults(result.messages)[0]).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });
  });

  it("still runs the calls its role allows", async () => {
    const p = await project({ builder: builderRole });
    const host = hostTools();
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { path: "src/app.ts", content: "x" }, id: "w1" }])
      .respond(new AIMessage("done"));
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model });

    await agent.invoke({ messages: [new HumanMessage("Write the app")] });

    expect(host.spies.write_file).toHaveBeenCalledTimes(1);
  });

  it("a read-only role that delegates again reaches no tool it was not given", async () => {
    const auditor = skillFile(
      { name: "auditor", description: "Audits.", role: true, "allowed-tools": "read_file handoff" },
      "AUDITOR: read, then hand writing off.",
    );
    const p = await project({ auditor, builder: builderRole });
    const host = hostTools();
    const inner = fakeModel()
      .respondWithTools([{ name: "write_file", args: { path: "src/app.ts", content: "x" }, id: "w1" }])
      .respond(new AIMessage("wrote it"));
    const handoff = delegateTool({ shelf: p.shelf, tools: host.tools, model: inner, name: "handoff" });
    const outer = fakeModel()
      .respondWithTools([{ name: "handoff", args: { role: "builder", task: "write src/app.ts" }, id: "h1" }])
      .respond(new AIMessage("done"));
    const agent = createRoleAgent("auditor", {
      shelf: p.shelf,
      tools: [...host.tools, handoff],
      model: outer,
    });

    const result = await agent.invoke({ messages: [new HumanMessage("Audit and fix")] });

    expect(host.spies.write_file).not.toHaveBeenCalled();
    expect(toolResults(result.messages)[0]).toMatchObject({
      status: "success",
      data: { role: "builder", tools: ["read_file"] },
    });
  });
});
