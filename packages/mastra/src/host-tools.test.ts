/**
 * Host tools whose names an activation or delegation tool would otherwise take: the host's
 * tool keeps its name and runs as the host's, in the run and when the next turn rebuilds the
 * session from the thread.
 */
import { Agent } from "@mastra/core/agent";
import { MockMemory } from "@mastra/core/memory";
import { createTool } from "@mastra/core/tools";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { z } from "zod";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel, systemText, toolNames } from "./test-utils/model.js";

const REVIEW_BODY = "Run the contract review.";
const ALTERNATIVE = /^skill_review-contract_[0-9a-f]{8}$/;

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

/** A host tool of this name whose `execute` is a spy. */
function hostTool(id: string) {
  const spy = vi.fn(async () => ({ ok: true, tool: id }));
  return {
    spy,
    tool: createTool({ id, description: `The host's ${id}.`, inputSchema: z.object({}), execute: spy }),
  };
}

function results(toolResults: unknown[]) {
  return toolResults.map(
    (r) => ((r as { payload?: unknown }).payload ?? r) as { toolName: string; result: unknown },
  );
}

describeWithSharedData("a host tool named skill_<skill>", () => {
  it("runs as the host's tool and is not replayed as an activation when the next turn rebuilds from the thread", async () => {
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const own = hostTool("skill_review-contract");
    const { tools } = hostTools();
    const mock = scriptedModel([
      { calls: [["skill_review-contract", {}]] },
      { text: "Ran your tool." },
      { text: "Sure." },
    ]);
    const agent = new Agent({
      id: "assistant",
      name: "Assistant",
      instructions: "Help.",
      model: mock.model,
      tools: { ...tools, "skill_review-contract": own.tool },
      inputProcessors: [skills.processor],
      memory: new MockMemory(),
    });
    const thread = { thread: "t1", resource: "u1" };

    const first = await agent.generate("Please review this contract for red flags", {
      memory: thread,
      maxSteps: 4,
    });
    const offered = toolNames(mock.calls()[0]);
    expect(offered).toContain("skill_review-contract");
    expect(offered.some((name) => ALTERNATIVE.test(name))).toBe(true);
    expect(own.spy).toHaveBeenCalledOnce();
    expect(results(first.toolResults)[0]?.result).toEqual({ ok: true, tool: "skill_review-contract" });
    expect(systemText(mock.calls()[1]).join("\n")).not.toContain(REVIEW_BODY);

    // Turn 2 rebuilds the session from the thread: the host's call activated nothing.
    const turnTwo = mock.calls().length;
    await agent.generate("It is in contract.pdf", { memory: thread, maxSteps: 4 });
    expect(systemText(mock.calls()[turnTwo]).join("\n")).not.toContain(REVIEW_BODY);
    expect(toolNames(mock.calls()[turnTwo])).toContain("web_search");
  });

  it("activates the skill under the alternative name it was offered", async () => {
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const own = hostTool("skill_review-contract");
    const { tools } = hostTools();
    const probe = scriptedModel([{ text: "hi" }]);
    const probeAgent = new Agent({
      id: "probe",
      name: "probe",
      instructions: "Help.",
      model: probe.model,
      tools: { ...tools, "skill_review-contract": own.tool },
      inputProcessors: [skills.processor],
    });
    await probeAgent.generate("Please review this contract for red flags");
    const alternative = toolNames(probe.calls()[0]).find((name) => ALTERNATIVE.test(name))!;

    const mock = scriptedModel([{ calls: [[alternative, {}]] }, { text: "Reviewing." }]);
    const agent = new Agent({
      id: "assistant",
      name: "Assistant",
      instructions: "Help.",
      model: mock.model,
      tools: { ...tools, "skill_review-contract": own.tool },
      inputProcessors: [skills.processor],
    });
    const result = await agent.generate("Please review this contract for red flags", { maxSteps: 3 });
    expect(results(result.toolResults)[0]).toMatchObject({
      toolName: alternative,
      result: { status: "success", data: { name: "review-contract" } },
    });
    expect(systemText(mock.calls()[1]).join("\n")).toContain(REVIEW_BODY);
    expect(own.spy).not.toHaveBeenCalled();
  });
});

describeWithSharedData("a host tool named delegate", () => {
  it("is not replaced: delegateTools() names the delegation tool skillshelf_delegate", async () => {
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const own = hostTool("delegate");
    const tools = { ...hostTools().tools, delegate: own.tool };
    const roleModel = scriptedModel([{ text: "Sources: A, B." }]);
    const delegation = skills.delegateTools({ model: roleModel.model, tools });
    expect(Object.keys(delegation)).toEqual(["skillshelf_delegate"]);
    expect(skills.delegateTool({ model: roleModel.model, tools }).id).toBe("skillshelf_delegate");

    const boss = scriptedModel([
      {
        calls: [
          ["delegate", {}],
          ["skillshelf_delegate", { role: "researcher", task: "Find sources on X" }],
        ],
      },
      { text: "Done." },
    ]);
    const lead = new Agent({
      id: "lead",
      name: "lead",
      instructions: "Delegate.",
      model: boss.model,
      tools: { ...tools, ...delegation },
    });
    const result = await lead.generate("Research X", { maxSteps: 3, toolCallConcurrency: 1 });

    expect(own.spy).toHaveBeenCalledOnce();
    const byName = Object.fromEntries(results(result.toolResults).map((r) => [r.toolName, r.result]));
    expect(byName.delegate).toEqual({ ok: true, tool: "delegate" });
    expect(byName.skillshelf_delegate).toMatchObject({
      status: "success",
      data: { role: "researcher", text: "Sources: A, B." },
    });
    // The sub-agent gets neither delegation tool.
    expect(toolNames(roleModel.calls()[0])).toEqual(["WebFetch", "web_search"]);
  });

  it("without one, delegateTools() offers it as delegate", () => {
    const skills = createSkills({ shelf: project.shelf });
    const roleModel = scriptedModel([]);
    expect(Object.keys(skills.delegateTools({ model: roleModel.model, tools: hostTools().tools }))).toEqual([
      "delegate",
    ]);
  });
});
