import {
  AIMessage,
  type BaseMessage,
  createAgent,
  fakeModel,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "langchain";
import { describe, expect, it, vi } from "vitest";
import { createRoleAgent, delegateTool } from "./roles.js";
import { project, recorder, skillFile, spiedTools } from "./test-utils/fixtures.js";

const reviewerRole = skillFile(
  {
    name: "reviewer",
    description: "Reviews a change and reports problems.",
    role: true,
    "allowed-tools": "read_file",
  },
  "REVIEWER-INSTRUCTIONS: read the files, list concrete problems, never edit.",
);

const plannerBuiltin = {
  content: skillFile(
    {
      name: "planner",
      description: "Breaks a goal into steps.",
      role: true,
      "allowed-tools": ["read_file", "web_*"],
    },
    "PLANNER-INSTRUCTIONS: produce a numbered plan.",
  ),
};

const hostTools = () => spiedTools(["read_file", "write_file", "web_search"]);

function systemText(messages: BaseMessage[] | undefined): string {
  const first = messages?.[0];
  return first && SystemMessage.isInstance(first) ? first.text : "";
}

describe("role sub-agents", () => {
  it("a user-written role file: instructions as system prompt, only its whitelisted tools", async () => {
    const p = await project({ reviewer: reviewerRole });
    const rec = recorder();
    const model = fakeModel().respond(new AIMessage("2 problems found"));
    const agent = createRoleAgent("reviewer", {
      shelf: p.shelf,
      tools: hostTools().tools,
      model,
      middleware: [rec.middleware],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("Review main.ts")] });

    expect(rec.calls[0]?.tools).toEqual(["read_file"]);
    expect(systemText(model.calls[0]?.messages)).toContain("REVIEWER-INSTRUCTIONS");
    expect(result.messages.at(-1)?.text).toBe("2 problems found");
  });

  it("is built as core builds every role agent: today's date line first, core's step limit", async () => {
    const p = await project({ reviewer: reviewerRole });
    const model = fakeModel()
      .respondWithTools([{ name: "read_file", args: {}, id: "r1" }])
      .respondWithTools([{ name: "read_file", args: {}, id: "r2" }])
      .respond(new AIMessage("never reached"));
    const agent = createRoleAgent("reviewer", {
      shelf: p.shelf,
      tools: hostTools().tools,
      model,
      maxSteps: 2,
    });

    await agent.invoke({ messages: [new HumanMessage("Review main.ts")] });

    const system = systemText(model.calls[0]?.messages);
    expect(system).toMatch(/^Today is \w+day, \d{4}-\d{2}-\d{2}/);
    expect(system).toContain("REVIEWER-INSTRUCTIONS");
    expect(model.callCount).toBe(2);
  });

  it("a builtin role behaves exactly like a user-written one (globs included)", async () => {
    const p = await project({ reviewer: reviewerRole }, { builtins: [plannerBuiltin] });
    const rec = recorder();
    const model = fakeModel().respond(new AIMessage("1. do it"));
    const agent = createRoleAgent("planner", {
      shelf: p.shelf,
      tools: hostTools().tools,
      model,
      middleware: [rec.middleware],
    });

    await agent.invoke({ messages: [new HumanMessage("Plan the release")] });

    expect(p.shelf.role("planner")?.scope).toBe("builtin");
    expect(rec.calls[0]?.tools).toEqual(["read_file", "web_search"]);
    expect(systemText(model.calls[0]?.messages)).toContain("PLANNER-INSTRUCTIONS");
  });

  it("uses the role's own model through resolveModel", async () => {
    const p = await project({
      fast: skillFile(
        { name: "fast", description: "Quick answers.", role: true, model: "tiny-model" },
        "FAST-INSTRUCTIONS",
      ),
    });
    const fallback = fakeModel();
    const tiny = fakeModel().respond(new AIMessage("quick"));
    const resolveModel = vi.fn(() => tiny);
    const agent = createRoleAgent("fast", { shelf: p.shelf, tools: [], model: fallback, resolveModel });

    await agent.invoke({ messages: [new HumanMessage("2+2?")] });

    expect(resolveModel).toHaveBeenCalledWith("tiny-model", expect.objectContaining({ name: "fast" }));
    expect(tiny.callCount).toBe(1);
    expect(fallback.callCount).toBe(0);
  });

  it("falls back to the given model when resolveModel maps a role's model to nothing", async () => {
    const p = await project({
      fast: skillFile(
        { name: "fast", description: "Quick answers.", role: true, model: "unknown-model" },
        "FAST-INSTRUCTIONS",
      ),
    });
    const fallback = fakeModel().respond(new AIMessage("quick"));
    const resolveModel = vi.fn(() => undefined);
    const agent = createRoleAgent("fast", { shelf: p.shelf, tools: [], model: fallback, resolveModel });

    await agent.invoke({ messages: [new HumanMessage("2+2?")] });

    expect(resolveModel).toHaveBeenCalledWith("unknown-model", expect.objectContaining({ name: "fast" }));
    expect(fallback.callCount).toBe(1);
  });

  it("reports a role's whitelist entry that matches none of the tools", async () => {
    const p = await project({
      reviewer: reviewerRole.replace("allowed-tools: read_file", "allowed-tools: read_file lint_code"),
    });
    const onDiagnostic = vi.fn();

    createRoleAgent("reviewer", {
      shelf: p.shelf,
      tools: hostTools().tools,
      model: fakeModel(),
      onDiagnostic,
    });

    expect(onDiagnostic).toHaveBeenCalledWith(
      expect.objectContaining({ code: "unknown-tool", message: expect.stringContaining("lint_code") }),
    );
  });

  it("throws a clear error for an unknown role", async () => {
    const p = await project({ reviewer: reviewerRole });
    expect(() => createRoleAgent("nobody", { shelf: p.shelf, tools: [], model: fakeModel() })).toThrow(
      /no role "nobody".*reviewer/,
    );
  });
});

describe("delegateTool", () => {
  it("runs the role's sub-agent on { role, task } and returns its answer to the orchestrator", async () => {
    const p = await project({ reviewer: reviewerRole });
    const host = hostTools();
    const sub = fakeModel()
      .respondWithTools([{ name: "read_file", args: { path: "main.ts" }, id: "r1" }])
      .respond(new AIMessage("LGTM except line 3"));
    const delegate = delegateTool({ shelf: p.shelf, tools: host.tools, model: sub });
    const orchestratorModel = fakeModel()
      .respondWithTools([{ name: "delegate", args: { role: "reviewer", task: "Review main.ts" }, id: "d1" }])
      .respondWithTools([{ name: "delegate", args: { role: "ghost", task: "Boo" }, id: "d2" }])
      .respond(new AIMessage("The reviewer says LGTM except line 3."));
    const orchestrator = createAgent({ model: orchestratorModel, tools: [delegate, ...host.tools] });

    const result = await orchestrator.invoke({ messages: [new HumanMessage("Get main.ts reviewed")] });

    const [answer, missing] = result.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(JSON.parse(answer!.text)).toEqual({
      status: "success",
      data: { role: "reviewer", text: "LGTM except line 3", tools: ["read_file"] },
      message: expect.any(String),
    });
    expect(JSON.parse(missing!.text)).toMatchObject({ status: "error", error_type: "UNKNOWN_ROLE" });
    // The sub-agent saw only its instructions and the task, not the orchestrator's conversation.
    const subInput = sub.calls[0]?.messages ?? [];
    expect(systemText(subInput)).toContain("REVIEWER-INSTRUCTIONS");
    expect(subInput.slice(1, 2).map((m) => m.text)).toEqual(["Review main.ts"]);
    expect(host.spies.read_file).toHaveBeenCalledOnce();
    expect(delegate.description).toContain("reviewer");
    expect(p.events).toContainEqual(
      expect.objectContaining({ type: "delegated", role: "reviewer", tools: ["read_file"] }),
    );
  });

  it("delegates to a role file added after the tool was created (hot reload)", async () => {
    const p = await project({ reviewer: reviewerRole });
    const sub = fakeModel().respond(new AIMessage("translated"));
    const delegate = delegateTool({ shelf: p.shelf, tools: hostTools().tools, model: sub });
    await p.write(
      "translator",
      skillFile(
        { name: "translator", description: "Translates text.", role: true },
        "TRANSLATOR-INSTRUCTIONS",
      ),
    );
    const orchestrator = createAgent({
      model: fakeModel()
        .respondWithTools([
          { name: "delegate", args: { role: "translator", task: "Translate hello" }, id: "t1" },
        ])
        .respond(new AIMessage("done")),
      tools: [delegate],
    });

    const result = await orchestrator.invoke({ messages: [new HumanMessage("translate hello")] });

    const answer = result.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(JSON.parse(answer!.text)).toMatchObject({
      status: "success",
      data: { role: "translator", text: "translated" },
    });
    expect(systemText(sub.calls[0]?.messages)).toContain("TRANSLATOR-INSTRUCTIONS");
  });
});
