import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { skipWithoutSharedData } from "@skillshelf/test-utils";
import {
  AIMessage,
  type BaseMessage,
  createAgent,
  fakeModel,
  HumanMessage,
  ToolMessage,
  toolStrategy,
} from "langchain";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { STATE_KEY } from "./state.js";
import { pdfSkill, project, recorder, sharedData, skillFile, spiedTools } from "./test-utils/fixtures.js";

const reviewSkill = skillFile(
  { name: "code-review", description: "Review a code change.", triggers: ["review"] },
  "REVIEW-BODY: check tests first.",
);

const deploySkill = skillFile(
  {
    name: "deploy",
    description: "Deploy the app to an environment.",
    triggers: ["deploy"],
    "disable-model-invocation": true,
    "argument-hint": "<environment>",
  },
  "DEPLOY-BODY: deploy to $ARGUMENTS now.",
);

const hostTools = () => spiedTools(["read_file", "shell", "web_fetch"]);

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

function parsed(message: ToolMessage | undefined): Record<string, unknown> {
  return JSON.parse(message?.text ?? "null") as Record<string, unknown>;
}

describe("skillsMiddleware", () => {
  it("offers the matching skill, then puts its body into the system message of the next call", async () => {
    const p = await project({ "pdf-report": pdfSkill, "code-review": reviewSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("report done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales")] });

    expect(rec.calls[0]?.tools).toContain("skill_pdf-report");
    expect(rec.calls[0]?.system).toContain("pdf-report");
    expect(rec.calls[0]?.system).not.toContain("PDF-BODY");
    expect(rec.calls[1]?.system).toContain("PDF-BODY");
    const activation = parsed(toolMessages(result.messages)[0]);
    expect(activation.status).toBe("success");
    expect(result[STATE_KEY]?.active.map((a) => a.name)).toEqual(["pdf-report"]);
    // What the model itself received, not just what the middleware handed on.
    expect(model.calls[1]?.messages[0]?.text).toContain("PDF-BODY");
    expect(p.events.some((e) => e.type === "activated" && e.skill === "pdf-report")).toBe(true);
  });

  it("filters the tool list to the active skill's whitelist", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
    });

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] });

    expect(rec.calls[0]?.tools).toEqual(expect.arrayContaining(["read_file", "shell", "web_fetch"]));
    expect(rec.calls[1]?.tools).toContain("read_file");
    expect(rec.calls[1]?.tools).not.toContain("shell");
    expect(rec.calls[1]?.tools).not.toContain("web_fetch");
  });

  it("blocks a call to a tool outside the whitelist: it never runs, the model reads TOOL_NOT_ALLOWED, the event is logged", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = hostTools();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      // Hidden from the model by now, but a model can still emit it; LangChain would run it.
      .respondWithTools([{ name: "shell", args: { cmd: "rm -rf /" }, id: "s1" }])
      .respondWithTools([{ name: "read_file", args: { path: "sales.csv" }, id: "r1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("pdf report please")] });

    expect(host.spies.shell).not.toHaveBeenCalled();
    expect(host.spies.read_file).toHaveBeenCalledOnce();
    const blocked = toolMessages(result.messages).find((m) => m.tool_call_id === "s1");
    expect(blocked?.status).toBe("error");
    expect(parsed(blocked)).toMatchObject({ status: "error", error_type: "TOOL_NOT_ALLOWED" });
    expect(String(parsed(blocked).message)).toContain("shell");
    expect(p.events).toContainEqual(expect.objectContaining({ type: "tool-blocked", tool: "shell" }));
  });

  it("keeps the active skill across turns with a checkpointer", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("turn one done"))
      .respond(new AIMessage("turn two done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t1" } };

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    const second = await agent.invoke({ messages: [new HumanMessage("ok, go ahead")] }, config);

    const turnTwo = rec.calls[2];
    expect(turnTwo?.system).toContain("PDF-BODY");
    expect(turnTwo?.tools).not.toContain("shell");
    expect(second[STATE_KEY]?.active.map((a) => a.name)).toEqual(["pdf-report"]);
  });

  it("ends the skill when the next request is unrelated: its restriction goes, the other tool runs", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = hostTools();
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("report done"))
      .respondWithTools([{ name: "web_fetch", args: { url: "https://example.com" }, id: "w1" }])
      .respond(new AIMessage("fetched"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "ends" } };

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    const second = await agent.invoke(
      { messages: [new HumanMessage("search the web for the weather")] },
      config,
    );

    expect(rec.calls[2]?.system).not.toContain("PDF-BODY");
    expect(rec.calls[2]?.tools).toContain("web_fetch");
    expect(host.spies.web_fetch).toHaveBeenCalledOnce();
    expect(second[STATE_KEY]?.active).toEqual([]);
    expect(p.events).toContainEqual(
      expect.objectContaining({ type: "deactivated", skill: "pdf-report", why: "new-request" }),
    );
  });

  it("ends the skill with /done, and with end_skill (its limits hold until the next user message)", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const host = hostTools();
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respondWithTools([{ name: "end_skill", args: {}, id: "e1" }])
      .respondWithTools([{ name: "shell", args: { cmd: "ls" }, id: "s1" }])
      .respond(new AIMessage("ended"))
      .respondWithTools([{ name: "shell", args: { cmd: "ls" }, id: "s2" }])
      .respond(new AIMessage("shell ran"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "done" } };

    const first = await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    expect(rec.calls[1]?.tools).toContain("end_skill");
    expect(parsed(toolMessages(first.messages).find((m) => m.tool_call_id === "e1"))).toMatchObject({
      status: "success",
    });
    // Ended by the model: the body is gone, the whitelist still holds for this turn.
    expect(rec.calls[2]?.system).not.toContain("PDF-BODY");
    expect(parsed(toolMessages(first.messages).find((m) => m.tool_call_id === "s1"))).toMatchObject({
      error_type: "TOOL_NOT_ALLOWED",
    });

    await agent.invoke({ messages: [new HumanMessage("/done")] }, config);
    expect(host.spies.shell).toHaveBeenCalledOnce();
  });

  it("rebuilds the state from the message history when there is no checkpointer", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("turn one done"))
      .respond(new AIMessage("turn two done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
    });

    const first = await agent.invoke({ messages: [new HumanMessage("pdf report please")] });
    await agent.invoke({ messages: [...first.messages, new HumanMessage("yes, go ahead")] });

    expect(rec.calls[2]?.system).toContain("PDF-BODY");
    expect(rec.calls[2]?.tools).not.toContain("shell");
  });

  it("runs two activations requested in one step (parallel tool calls)", async () => {
    const p = await project({ "pdf-report": pdfSkill, "code-review": reviewSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([
        { name: "skill_pdf-report", args: {}, id: "a1" },
        { name: "skill_code-review", args: {}, id: "a2" },
      ])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage("pdf report, then review it")] },
      { configurable: { thread_id: "p" } },
    );

    expect(result[STATE_KEY]?.active.map((a) => a.name).sort()).toEqual(["code-review", "pdf-report"]);
    expect(rec.calls[1]?.system).toContain("PDF-BODY");
    expect(rec.calls[1]?.system).toContain("REVIEW-BODY");
  });

  it("judges a response as a whole: one skill per group, and a host call beside an activation is judged after it", async () => {
    const formal = skillFile(
      {
        name: "tone-formal",
        description: "Write formally.",
        triggers: ["formal"],
        group: "tone",
        "allowed-tools": "read_file",
      },
      "FORMAL-BODY",
    );
    const casual = skillFile(
      { name: "tone-casual", description: "Write casually.", triggers: ["casual"], group: "tone" },
      "CASUAL-BODY",
    );
    const p = await project({ "tone-formal": formal, "tone-casual": casual });
    const host = hostTools();
    const model = fakeModel()
      .respondWithTools([
        { name: "shell", args: { cmd: "mail boss" }, id: "s1" },
        // Through activate_skill, which this step offers (stage 1 gives one of the two its own tool).
        { name: "activate_skill", args: { name: "tone-formal" }, id: "f1" },
        { name: "activate_skill", args: { name: "tone-casual" }, id: "c1" },
      ])
      .respond(new AIMessage("drafted"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
      checkpointer: new MemorySaver(),
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage("a formal or casual reply")] },
      { configurable: { thread_id: "group" } },
    );

    const byId = (id: string) => parsed(toolMessages(result.messages).find((m) => m.tool_call_id === id));
    expect(byId("s1")).toMatchObject({ status: "error", error_type: "TOOL_NOT_ALLOWED" });
    expect(byId("f1")).toMatchObject({ status: "success" });
    expect(byId("c1")).toMatchObject({ status: "error", error_type: "GROUP_CONFLICT" });
    expect(host.spies.shell).not.toHaveBeenCalled();
    expect(result[STATE_KEY]?.active.map((a) => a.name)).toEqual(["tone-formal"]);
  });

  it("never offers a disable-model-invocation skill, refuses it to the model, yet `/name args` works", async () => {
    const p = await project({ deploy: deploySkill });
    const rec = recorder();
    const model = fakeModel()
      // The model tries anyway (it guessed the name): refused, structured.
      .respondWithTools([{ name: "skill_deploy", args: {}, id: "d1" }])
      .respond(new AIMessage("I cannot deploy."))
      .respond(new AIMessage("deploying"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "d" } };

    const first = await agent.invoke({ messages: [new HumanMessage("deploy the app")] }, config);
    expect(rec.calls[0]?.tools.some((t) => t.includes("deploy"))).toBe(false);
    expect(rec.calls[0]?.system).not.toContain("DEPLOY-BODY");
    // Its tool is offered on no step: refused as any tool the step did not register, the same
    // words as in the AI SDK and Mastra (which never registered it).
    const refused = parsed(toolMessages(first.messages)[0]);
    expect(refused).toMatchObject({ status: "error", error_type: "TOOL_NOT_OFFERED" });
    expect(first[STATE_KEY]?.active ?? []).toEqual([]);

    const second = await agent.invoke({ messages: [new HumanMessage("/deploy staging")] }, config);
    expect(rec.calls[2]?.system).toContain("DEPLOY-BODY: deploy to staging now.");
    expect(second[STATE_KEY]?.active).toEqual([expect.objectContaining({ name: "deploy", by: "user" })]);
  });

  it("plans each user message once per turn: one candidates event, one /name activation, however many model calls", async () => {
    const p = await project({ "pdf-report": pdfSkill, deploy: deploySkill });
    const model = fakeModel()
      .respondWithTools([{ name: "read_file", args: { path: "a" }, id: "r1" }])
      .respondWithTools([{ name: "read_file", args: { path: "b" }, id: "r2" }])
      .respond(new AIMessage("one"))
      .respondWithTools([{ name: "shell", args: { cmd: "make" }, id: "s1" }])
      .respond(new AIMessage("two"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "once" } };

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    await agent.invoke({ messages: [new HumanMessage("/deploy prod")] }, config);

    expect(p.events.filter((e) => e.type === "candidates")).toHaveLength(1);
    expect(p.events.filter((e) => e.type === "activated")).toEqual([
      expect.objectContaining({ skill: "deploy", by: "user", args: "prod" }),
    ]);
  });

  it("keeps a structured response (responseFormat) on a call that also changed the skill state", async () => {
    const p = await project({ deploy: deploySkill });
    const model = fakeModel().respondWithTools([{ name: "Answer", args: { answer: "deployed" }, id: "x1" }]);
    const agent = createAgent({
      model,
      tools: [],
      responseFormat: toolStrategy(z.object({ answer: z.string() }).meta({ title: "Answer" })),
      middleware: [skillsMiddleware({ shelf: p.shelf })],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("/deploy prod")] });

    expect(result.structuredResponse).toEqual({ answer: "deployed" });
    expect(result[STATE_KEY]?.active.map((a) => a.name)).toEqual(["deploy"]);
    expect(model.calls[0]?.messages[0]?.text).toContain("DEPLOY-BODY: deploy to prod now.");
  });

  it("reports a whitelisted tool that matches none of the host's tools, once by default", async () => {
    const p = await project({
      "pdf-report": pdfSkill.replace("allowed-tools: read_file", "allowed-tools: read_file render_pdf"),
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respondWithTools([{ name: "read_file", args: { path: "a" }, id: "r1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
    });

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] });

    const warnings = warn.mock.calls
      .map(([text]) => String(text))
      .filter((text) => text.includes("unknown-tool"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("render_pdf");

    const onDiagnostic = vi.fn();
    const again = createAgent({
      model: fakeModel()
        .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a2" }])
        .respond(new AIMessage("done")),
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic })],
    });
    await again.invoke({ messages: [new HumanMessage("pdf report please")] });
    expect(onDiagnostic).toHaveBeenCalledWith(
      expect.objectContaining({ code: "unknown-tool", severity: "warning" }),
    );
  });

  it("sees an edited SKILL.md on the next turn (hot reload), its whitelist pinned while active", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("one"))
      .respond(new AIMessage("two"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "h" } };

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    expect(rec.calls[1]?.tools).not.toContain("web_fetch");

    await p.write(
      "pdf-report",
      pdfSkill
        .replace("PDF-BODY:", "PDF-BODY-V2:")
        .replace("allowed-tools: read_file", "allowed-tools: read_file web_fetch"),
    );
    await agent.invoke(
      { messages: [new HumanMessage("pdf report: also fetch last year's numbers")] },
      config,
    );

    expect(rec.calls[2]?.system).toContain("PDF-BODY-V2:");
    // The limits stay as the file said when the skill was activated: an edit never widens them mid-conversation.
    expect(rec.calls[2]?.tools).not.toContain("web_fetch");
  });

  it("keeps the last good version when an edit breaks the SKILL.md, and the agent runs on", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("one"))
      .respond(new AIMessage("two"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "broken" } };

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] }, config);
    await p.write("pdf-report", "---\nname: pdf-report\ndescription: [unclosed\n---\nPDF-BODY-BROKEN\n");
    const second = await agent.invoke({ messages: [new HumanMessage("continue")] }, config);

    expect(second.messages.at(-1)?.text).toBe("two");
    expect(rec.calls[2]?.system).toContain("PDF-BODY: read the data");
    expect(rec.calls[2]?.system).not.toContain("PDF-BODY-BROKEN");
    expect(p.shelf.diagnostics().some((d) => d.severity === "error" && d.file.endsWith("SKILL.md"))).toBe(
      true,
    );
  });

  it("answers a malformed activation call with a structured error and activates nothing", async () => {
    const p = await project({ "pdf-report": pdfSkill, "code-review": reviewSkill });
    const model = fakeModel()
      .respondWithTools([{ name: "activate_skill", args: { skill: "code-review" }, id: "m1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("pdf report please")] });

    expect(parsed(toolMessages(result.messages)[0])).toMatchObject({
      status: "error",
      error_type: "INVALID_ARGUMENTS",
    });
    expect(result[STATE_KEY]?.active).toEqual([]);
  });

  it("counts reading a SKILL.md through a read tool of the shelf as use", async () => {
    const p = await project({ "pdf-report": pdfSkill }, { readTools: ["read_file"] });
    const file = join(p.root, ".skillshelf", "skills", "pdf-report", "SKILL.md");
    const model = fakeModel()
      .respondWithTools([{ name: "read_file", args: { path: file }, id: "r1" }])
      .respond(new AIMessage("read it"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
    });

    await agent.invoke({ messages: [new HumanMessage("what skills do you have?")] });

    expect(p.events).toContainEqual(expect.objectContaining({ type: "skill-read", skill: "pdf-report" }));
  });

  it("enforces a real corpus skill's whitelist (markitdown: Read Write Edit Bash)", async (ctx) => {
    skipWithoutSharedData(ctx);
    const source = join(
      sharedData,
      "skills-corpus/K-Dense-AI--claude-scientific-skills/scientific-skills/markitdown/SKILL.md",
    );
    const p = await project();
    await p.write("markitdown", await readFile(source, "utf8"));
    const host = hostTools();
    const rec = recorder();
    const model = fakeModel()
      .respondWithTools([{ name: "skill_markitdown", args: {}, id: "m1" }])
      .respondWithTools([{ name: "web_fetch", args: { url: "https://example.com" }, id: "w1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: host.tools,
      middleware: [skillsMiddleware({ shelf: p.shelf }), rec.middleware],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("convert this docx file to markdown")] });

    expect(parsed(toolMessages(result.messages)[0]).status).toBe("success");
    expect(rec.calls[1]?.tools).toContain("read_file");
    expect(rec.calls[1]?.tools).not.toContain("web_fetch");
    expect(host.spies.web_fetch).not.toHaveBeenCalled();
  });

  it("calls afterRun only after a run in which a skill was active", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const afterRun = vi.fn();
    const model = fakeModel()
      .respond(new AIMessage("hello"))
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, afterRun })],
    });

    await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(afterRun).not.toHaveBeenCalled();
    await agent.invoke({ messages: [new HumanMessage("pdf report please")] });
    expect(afterRun).toHaveBeenCalledOnce();
    expect(afterRun.mock.calls[0]?.[0].active).toEqual([expect.objectContaining({ name: "pdf-report" })]);
  });

  it("checks the skill folders once per run: before the call that answers the message, not after tool results", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const refresh = vi.spyOn(p.shelf, "refresh");
    const model = fakeModel()
      .respondWithTools([{ name: "read_file", args: { path: "a" }, id: "r1" }])
      .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
      .respond(new AIMessage("done"))
      .respond(new AIMessage("hello again"));
    const agent = createAgent({
      model,
      tools: hostTools().tools,
      middleware: [skillsMiddleware({ shelf: p.shelf })],
    });

    await agent.invoke({ messages: [new HumanMessage("pdf report please")] });
    expect(model.calls).toHaveLength(3);
    expect(refresh).toHaveBeenCalledOnce();
    await agent.invoke({ messages: [new HumanMessage("thanks")] });
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
