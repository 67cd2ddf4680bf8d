import { Agent } from "@mastra/core/agent";
import { MockMemory } from "@mastra/core/memory";
import { RequestContext } from "@mastra/core/request-context";
import { createShelf, type SkillEvent } from "@skillshelf/core";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { type ScriptStep, scriptedModel, systemText, toolNames, toolOutput } from "./test-utils/model.js";

type Mode = "generate" | "stream";

interface ToolResultView {
  toolName: string;
  result: unknown;
}

/** Run one turn through generate() or stream() and return its text and tool results. */
async function run(agent: Agent, message: string, mode: Mode, options: Record<string, unknown> = {}) {
  const opts = { maxSteps: 8, ...options };
  if (mode === "generate") {
    const result = await agent.generate(message, opts);
    return { text: result.text, toolResults: view(result.toolResults) };
  }
  const stream = await agent.stream(message, opts);
  return { text: await stream.text, toolResults: view(await stream.toolResults) };
}

function view(results: unknown[]): ToolResultView[] {
  return results.map((r) => {
    const item = ((r as { payload?: unknown }).payload ?? r) as { toolName: string; result: unknown };
    return { toolName: item.toolName, result: item.result };
  });
}

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

function setup(script: ScriptStep[], extra: { memory?: MockMemory } = {}) {
  const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
  const { tools, spies } = hostTools();
  const mock = scriptedModel(script);
  const agent = new Agent({
    id: "assistant",
    name: "Assistant",
    instructions: "You are a helpful small-business assistant.",
    model: mock.model,
    tools,
    inputProcessors: [skills.processor],
    ...extra,
  });
  return { agent, mock, spies, skills };
}

const REVIEW_BODY = "Run the contract review.";

describeWithSharedData.each<Mode>(["generate", "stream"])("skills processor with %s()", (mode) => {
  it("offers the matching skill, then restricts tools and injects the body from the next step", async () => {
    const { agent, mock, spies } = setup([
      { calls: [["skill_review-contract", {}]] },
      { calls: [["Read", { path: "contract.pdf" }]] },
      { text: "Here is the review." },
    ]);
    const { text, toolResults } = await run(agent, "Please review this contract for red flags", mode);

    expect(text).toBe("Here is the review.");
    const [first, second, third] = mock.calls();
    // Step 0: every host tool plus the activation tool; the catalog, no body yet.
    expect(toolNames(first)).toEqual(
      expect.arrayContaining(["Read", "Bash", "WebFetch", "web_search", "skill_review-contract"]),
    );
    expect(systemText(first)[0]).toBe("You are a helpful small-business assistant.");
    expect(systemText(first).join("\n")).toContain("review-contract");
    expect(systemText(first).join("\n")).not.toContain(REVIEW_BODY);
    // Step 1: only the whitelist (Read, WebFetch, Bash); the body is a system message.
    expect(toolNames(second)).toEqual(expect.arrayContaining(["Bash", "Read", "WebFetch"]));
    expect(toolNames(second)).not.toContain("web_search");
    expect(toolNames(second)).not.toContain("Write");
    expect(systemText(second)[0]).toBe("You are a helpful small-business assistant.");
    expect(systemText(second).join("\n")).toContain(REVIEW_BODY);
    expect(toolNames(third)).toEqual(toolNames(second));
    // The activation returned core's structured result; Read really ran.
    expect(toolResults[0]).toMatchObject({
      toolName: "skill_review-contract",
      result: { status: "success" },
    });
    expect(spies.Read).toHaveBeenCalledOnce();
  });

  it("never runs a tool the active skill forbids", async () => {
    const { agent, mock, spies } = setup([
      { calls: [["skill_review-contract", {}]] },
      { calls: [["web_search", { q: "contract law" }]] },
      { text: "ok" },
    ]);
    await run(agent, "Please review this contract for red flags", mode);

    expect(spies.web_search).not.toHaveBeenCalled();
    // Hidden from the model, yet a call it makes anyway (a tool it saw before the skill) is
    // refused by core, not by Mastra's "not found": the model reads core's result.
    expect(toolNames(mock.calls()[1])).not.toContain("web_search");
    const refusal = JSON.stringify(toolOutput(mock.calls()[2], "web_search"));
    expect(refusal).toContain("TOOL_NOT_ALLOWED");
    expect(refusal).toContain('is not allowed while skill \\"review-contract\\" is active');
  });

  it("records the refused call of a hidden tool as core's tool-blocked event", async () => {
    const events: SkillEvent[] = [];
    const shelf = await createShelf({
      root: project.root,
      userDirs: [],
      builtinRoles: false,
      events: { emit: (e) => events.push(e) },
    });
    const skills = createSkills({ shelf, onDiagnostic: () => undefined });
    const { tools, spies } = hostTools();
    const mock = scriptedModel([
      { calls: [["skill_review-contract", {}]] },
      { calls: [["web_search", { q: "contract law" }]] },
      { text: "ok" },
    ]);
    const agent = new Agent({
      id: "a",
      name: "A",
      instructions: "Help.",
      model: mock.model,
      tools,
      inputProcessors: [skills.processor],
    });
    const { text } = await run(agent, "Please review this contract for red flags", mode);
    await shelf.close();

    expect(text).toBe("ok");
    expect(spies.web_search).not.toHaveBeenCalled();
    expect(events.filter((e) => e.type === "tool-blocked")).toEqual([
      expect.objectContaining({ tool: "web_search", skill: "review-contract" }),
    ]);
  });

  it("guards at execution time: a forbidden call in the activating step gets TOOL_NOT_ALLOWED", async () => {
    const { agent, spies } = setup([
      {
        calls: [
          ["skill_review-contract", {}],
          ["web_search", { q: "contract law" }],
        ],
      },
      { text: "ok" },
    ]);
    // Sequential tool execution makes the order deterministic: activation first, then the call.
    const { toolResults } = await run(agent, "Please review this contract for red flags", mode, {
      toolCallConcurrency: 1,
    });

    expect(spies.web_search).not.toHaveBeenCalled();
    expect(toolResults.find((r) => r.toolName === "web_search")?.result).toMatchObject({
      status: "error",
      error_type: "TOOL_NOT_ALLOWED",
    });
  });

  it("does not offer a disable-model-invocation skill, but runs it on an explicit /name", async () => {
    const offered = setup([{ text: "Which symbol?" }]);
    await run(offered.agent, "rename the symbol fooBar to bazQux", mode);
    const call = offered.mock.calls()[0];
    expect(toolNames(call)).not.toContain("skill_rename-symbol");
    const activate = call?.tools?.find((t) => t.name === "activate_skill");
    expect(JSON.stringify(activate ?? {})).not.toContain("rename-symbol");

    const explicit = setup([{ calls: [["Edit", { file: "a.ts" }]] }, { text: "Renamed." }]);
    await run(explicit.agent, "/rename-symbol fooBar bazQux", mode);
    const [first] = explicit.mock.calls();
    // Active from the first step: body with arguments substituted, tools cut to Read + Edit.
    expect(systemText(first).join("\n")).toContain("Rename every occurrence of fooBar to bazQux.");
    expect(toolNames(first).filter((n) => n in explicit.spies)).toEqual(["Edit", "Read"]);
    expect(explicit.spies.Edit).toHaveBeenCalledOnce();
  });

  it("keeps a skill active in the next turn of a memory thread", async () => {
    const memory = new MockMemory();
    const { agent, mock, spies } = setup(
      [
        { calls: [["skill_review-contract", {}]] },
        { text: "Send me the file." },
        { calls: [["Read", {}]] },
        { text: "Done." },
      ],
      { memory },
    );
    const thread = { thread: "thread-1", resource: "user-1" };
    await run(agent, "Please review this contract for red flags", mode, { memory: thread });
    const turnOneCalls = mock.calls().length;

    await run(agent, "Yes, it is in contract.pdf", mode, { memory: thread });
    const secondTurn = mock.calls()[turnOneCalls];
    expect(systemText(secondTurn).join("\n")).toContain(REVIEW_BODY);
    expect(toolNames(secondTurn)).not.toContain("web_search");
    expect(toolNames(secondTurn)).toEqual(expect.arrayContaining(["Read", "WebFetch", "Bash"]));
    expect(spies.Read).toHaveBeenCalledOnce();
  });

  it("carries the session in the request context when the caller puts one there", async () => {
    const { agent, mock } = setup([
      { calls: [["skill_review-contract", {}]] },
      { text: "Send it." },
      { text: "Got it." },
    ]);
    const requestContext = new RequestContext();
    requestContext.set("skillshelf", { active: [] });
    await run(agent, "Please review this contract for red flags", mode, { requestContext });
    expect(requestContext.get("skillshelf")).toMatchObject({
      active: [{ name: "review-contract", by: "model" }],
    });

    // No memory: the second turn knows only what the request context carried.
    const before = mock.calls().length;
    await run(agent, "Yes, it is in contract.pdf", mode, { requestContext });
    expect(systemText(mock.calls()[before]).join("\n")).toContain(REVIEW_BODY);
    expect(toolNames(mock.calls()[before])).not.toContain("web_search");
  });
});

describeWithSharedData("skills processor diagnostics", () => {
  it("reports a whitelisted tool the agent does not have, once, through console.warn by default", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const skills = createSkills({ shelf: project.shelf });
      const { tools } = hostTools();
      const { WebFetch: _dropped, ...withoutWebFetch } = tools;
      const mock = scriptedModel([
        { calls: [["skill_review-contract", {}]] },
        { calls: [["Read", {}]] },
        { text: "ok" },
      ]);
      const agent = new Agent({
        id: "a",
        name: "a",
        instructions: "x",
        model: mock.model,
        tools: withoutWebFetch,
        inputProcessors: [skills.processor],
      });
      await run(agent, "Please review this contract for red flags", "generate");

      const unknown = warn.mock.calls.filter(([text]) => String(text).includes("unknown-tool"));
      expect(unknown).toHaveLength(1);
      expect(String(unknown[0]?.[0])).toContain('"WebFetch"');
    } finally {
      warn.mockRestore();
    }
  });

  it("hands every plan to onPlan", async () => {
    const seen: Array<{ step: number; active: string[]; offered: boolean }> = [];
    const skills = createSkills({
      shelf: project.shelf,
      onDiagnostic: () => undefined,
      onPlan: (plan, { stepNumber, session }) =>
        seen.push({
          step: stepNumber,
          active: session.active().map((s) => s.name),
          offered: plan.tools.some((t) => t.name === "skill_review-contract"),
        }),
    });
    const mock = scriptedModel([{ calls: [["skill_review-contract", {}]] }, { text: "ok" }]);
    const agent = new Agent({
      id: "a",
      name: "a",
      instructions: "x",
      model: mock.model,
      tools: hostTools().tools,
      inputProcessors: [skills.processor],
    });
    await run(agent, "Please review this contract for red flags", "stream");
    expect(seen).toEqual([
      { step: 0, active: [], offered: true },
      { step: 1, active: ["review-contract"], offered: false },
    ]);
  });
});

describeWithSharedData("skills processor without skills in play", () => {
  it("leaves an unrelated turn's host tools alone", async () => {
    const { agent, mock } = setup([{ text: "Hello!" }]);
    await run(agent, "hi there", "generate");
    expect(toolNames(mock.calls()[0])).toEqual(
      expect.arrayContaining(["Bash", "Edit", "Read", "WebFetch", "Write", "web_search"]),
    );
    expect(systemText(mock.calls()[0])[0]).toBe("You are a helpful small-business assistant.");
  });
});
