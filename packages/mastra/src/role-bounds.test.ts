/**
 * A sub-agent started while a skill is active never uses a tool the parent could not, in
 * both routes: Mastra's `agents: {…}` (`agent-<role>` tools) and the `delegate` tool. And a
 * role agent stops at core's step limit whatever `maxSteps` the orchestrating model asks for.
 */
import { Agent } from "@mastra/core/agent";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel, toolNames } from "./test-utils/model.js";

const VIA_AGENTS = `---
name: fetch-brief
description: Brief the user on one web page, through the researcher.
triggers: [brief me on]
allowed-tools: [agent-researcher, WebFetch]
---
Ask the researcher, then brief the user.
`;

const VIA_DELEGATE = `---
name: page-digest
description: Digest one web page for the user, through a sub-agent.
triggers: [digest the page]
allowed-tools: [delegate, WebFetch]
---
Delegate the reading, then digest it.
`;

function results(toolResults: unknown[]) {
  return toolResults.map(
    (r) => ((r as { payload?: unknown }).payload ?? r) as { toolName: string; result: unknown },
  );
}

let project: Project;
beforeEach(async () => {
  project = await createProject({ "fetch-brief": VIA_AGENTS, "page-digest": VIA_DELEGATE });
});
afterEach(async () => {
  await project.cleanup();
});

describeWithSharedData("a role sub-agent under the parent's active skill", () => {
  it("agent-<role>: is offered only the tools the parent may use, and a call to another is refused", async () => {
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const { tools, spies } = hostTools();
    const roleModel = scriptedModel([
      { calls: [["web_search", { q: "x" }]] },
      { calls: [["WebFetch", { url: "https://example.com" }]] },
      { text: "The page says X." },
    ]);
    const boss = scriptedModel([
      { calls: [["skill_fetch-brief", {}]] },
      { calls: [["agent-researcher", { prompt: "Read https://example.com" }]] },
      { text: "Briefed." },
    ]);
    const lead = new Agent({
      id: "lead",
      name: "lead",
      instructions: "Help.",
      model: boss.model,
      tools,
      agents: skills.roleAgents({ model: roleModel.model, tools }),
      inputProcessors: [skills.processor],
    });
    await lead.generate("Please brief me on https://example.com", { maxSteps: 5 });

    expect(toolNames(boss.calls()[1])).toContain("agent-researcher");
    expect(toolNames(roleModel.calls()[0])).toEqual(["WebFetch"]);
    expect(spies.web_search).not.toHaveBeenCalled();
    expect(spies.WebFetch).toHaveBeenCalledOnce();
  });

  it("delegate: the role's other tools are withheld, and the lead model is told so", async () => {
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const { tools, spies } = hostTools();
    const roleModel = scriptedModel([{ calls: [["web_search", { q: "x" }]] }, { text: "The page says X." }]);
    const boss = scriptedModel([
      { calls: [["skill_page-digest", {}]] },
      { calls: [["delegate", { role: "researcher", task: "Read https://example.com" }]] },
      { text: "Digested." },
    ]);
    const lead = new Agent({
      id: "lead",
      name: "lead",
      instructions: "Help.",
      model: boss.model,
      tools: { ...tools, ...skills.delegateTools({ model: roleModel.model, tools }) },
      inputProcessors: [skills.processor],
    });
    const result = await lead.generate("Please digest the page https://example.com", { maxSteps: 5 });

    const delegated = results(result.toolResults).find((r) => r.toolName === "delegate")?.result;
    expect(delegated).toMatchObject({ status: "success", data: { role: "researcher", tools: ["WebFetch"] } });
    expect((delegated as { message: string }).message).toContain("without web_search");
    expect(toolNames(roleModel.calls()[0])).toEqual(["WebFetch"]);
    expect(spies.web_search).not.toHaveBeenCalled();
  });
});

describeWithSharedData("a role agent's step limit", () => {
  it("is core's, even when the orchestrating model asks agent-<role> for more", async () => {
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const { tools } = hostTools();
    const roleModel = scriptedModel(
      Array.from({ length: 30 }, () => ({
        calls: [["WebFetch", { url: "https://example.com" }]] as Array<[string, unknown]>,
      })),
    );
    const boss = scriptedModel([
      { calls: [["agent-researcher", { prompt: "Read it all", maxSteps: 50 }]] },
      { text: "Done." },
    ]);
    const lead = new Agent({
      id: "lead",
      name: "lead",
      instructions: "Help.",
      model: boss.model,
      agents: skills.roleAgents({ model: roleModel.model, tools }),
    });
    await lead.generate("Research it", { maxSteps: 3 });

    expect(roleModel.calls().length).toBeGreaterThan(3);
    expect(roleModel.calls().length).toBeLessThanOrEqual(10);
  });
});
