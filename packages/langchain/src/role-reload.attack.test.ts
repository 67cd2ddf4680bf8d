/**
 * A role agent built ahead (`createRoleAgent`) lives as long as the host keeps it. When the
 * user narrows the role's `allowed-tools` on disk, a tool the role no longer gives must be
 * refused from the next call on, as a delegation prepared after the edit refuses it; a
 * widening edit gives nothing the agent was not built with. A role that is gone gives no tools.
 */
import { AIMessage, fakeModel, HumanMessage, ToolMessage } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { createRoleAgent } from "./roles.js";
import { project, skillFile, spiedTools } from "./test-utils/fixtures.js";

const builder = (tools: string) =>
  skillFile(
    { name: "builder", description: "Implements a change.", role: true, "allowed-tools": tools },
    "BUILDER-INSTRUCTIONS: make the change.",
  );

const hostTools = () => spiedTools(["read_file", "write_file", "send_email"]);

const results = (messages: unknown[]) =>
  messages
    .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
    .map((m) => JSON.parse(String(m.content)) as Record<string, unknown>);

const writing = () =>
  fakeModel()
    .respondWithTools([{ name: "write_file", args: { path: "out.txt", content: "x" }, id: "w1" }])
    .respond(new AIMessage("done"))
    .respondWithTools([{ name: "write_file", args: { path: "out.txt", content: "y" }, id: "w2" }])
    .respond(new AIMessage("done"));

describe("a role agent built ahead, its role edited on disk", () => {
  it("narrowed: the tool it no longer gives is refused on the next run", async () => {
    const p = await project({ builder: builder("read_file write_file") });
    const host = hostTools();
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model: writing() });
    await agent.invoke({ messages: [new HumanMessage("Make the change")] });
    expect(host.spies.write_file).toHaveBeenCalledTimes(1);

    await p.write("builder", builder("read_file"));
    await p.shelf.refresh();
    const result = await agent.invoke({ messages: [new HumanMessage("Make it again")] });
    expect(host.spies.write_file).toHaveBeenCalledTimes(1);
    expect(results(result.messages).at(-1)).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });
  });

  it("removed: the agent gets no tools", async () => {
    const p = await project({ builder: builder("read_file write_file") });
    const host = hostTools();
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model: writing() });
    await p.write("builder", builder("read_file").replace("role: true", "role: false"));
    await p.shelf.refresh();
    await agent.invoke({ messages: [new HumanMessage("Make the change")] });
    expect(host.spies.write_file).not.toHaveBeenCalled();
  });

  it("widened: nothing it was not built with (held on 9bbb19e)", async () => {
    const p = await project({ builder: builder("read_file") });
    const host = hostTools();
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model: writing() });
    await p.write("builder", builder("read_file write_file"));
    await p.shelf.refresh();
    await agent.invoke({ messages: [new HumanMessage("Make the change")] });
    expect(host.spies.write_file).not.toHaveBeenCalled();
  });

  it("one tool call is judged and bounded under one reading of the role", async () => {
    // Read twice, an edit landing between the reads would judge the call under one version
    // of the role and bound the tool's own delegations under another.
    const p = await project({ builder: builder("read_file write_file") });
    const host = hostTools();
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { path: "out.txt", content: "x" }, id: "w1" }])
      .respond(new AIMessage("done"));
    const agent = createRoleAgent("builder", { shelf: p.shelf, tools: host.tools, model });
    const reads = vi.spyOn(p.shelf, "role");
    await agent.invoke({ messages: [new HumanMessage("Make the change")] });
    expect(host.spies.write_file).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
