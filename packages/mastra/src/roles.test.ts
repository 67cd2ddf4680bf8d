import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { createShelf, type SkillEvent } from "@skillshelf/core";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel, systemText, toolNames } from "./test-utils/model.js";

const SUMMARISER = `---
name: summariser
description: Summarises long documents into a short brief.
role: true
model: fast
allowed-tools: Read
---
Summarise the document in five bullet points.
`;

function results(toolResults: unknown[]) {
  return toolResults.map(
    (r) => ((r as { payload?: unknown }).payload ?? r) as { toolName: string; result: unknown },
  );
}

let project: Project;
beforeEach(async () => {
  project = await createProject({ summariser: SUMMARISER });
});
afterEach(async () => {
  await project.cleanup();
});

describeWithSharedData("role agents", () => {
  it("builds one agent per role skill that sees only its whitelisted tools", async () => {
    const skills = createSkills({ shelf: project.shelf });
    const { tools, spies } = hostTools();
    const mock = scriptedModel([{ calls: [["web_search", { q: "x" }]] }, { text: "Three sources agree." }]);
    const roles = skills.roleAgents({ model: mock.model, tools });

    expect(Object.keys(roles).sort()).toEqual(["researcher", "summariser"]);
    const researcher = roles.researcher!;
    expect(researcher.getDescription()).toBe("Finds and summarises sources on the web for a question.");
    const result = await researcher.generate("Is the sky blue?", { maxSteps: 3 });

    expect(result.text).toBe("Three sources agree.");
    expect(toolNames(mock.calls()[0])).toEqual(["WebFetch", "web_search"]);
    expect(systemText(mock.calls()[0]).join("\n")).toContain("You are a careful researcher.");
    expect(spies.web_search).toHaveBeenCalledOnce();
  });

  it("runs a role on its own model through resolveModel, else on the default", async () => {
    const skills = createSkills({ shelf: project.shelf });
    const fallback = scriptedModel([{ text: "default" }]);
    const fast = scriptedModel([{ text: "fast summary" }]);
    const seen: string[] = [];
    const roles = skills.roleAgents({
      model: fallback.model,
      tools: hostTools().tools,
      resolveModel: (id) => {
        seen.push(id);
        return id === "fast" ? fast.model : undefined;
      },
    });

    expect((await roles.summariser!.generate("Summarise README.md")).text).toBe("fast summary");
    expect(toolNames(fast.calls()[0])).toEqual(["Read"]);
    expect(seen).toEqual(["fast"]);
    expect((await roles.researcher!.generate("Anything?")).text).toBe("default");
  });

  it("exposes role agents to an orchestrator the Mastra way: agents: {…}", async () => {
    const skills = createSkills({ shelf: project.shelf });
    const roleModel = scriptedModel([{ text: "Sources: A, B." }]);
    const roles = skills.roleAgents({ model: roleModel.model, tools: hostTools().tools });
    const boss = scriptedModel([
      { calls: [["agent-researcher", { prompt: "Find sources on X" }]] },
      { text: "The researcher found A and B." },
    ]);
    const orchestrator = new Agent({
      id: "orchestrator",
      name: "Orchestrator",
      instructions: "Delegate research.",
      model: boss.model,
      agents: roles,
    });
    const result = await orchestrator.generate("Research X", { maxSteps: 4 });

    expect(toolNames(boss.calls()[0])).toEqual(["agent-researcher", "agent-summariser"]);
    expect(result.text).toBe("The researcher found A and B.");
    // The sub-agent ran with its own tools and instructions.
    expect(toolNames(roleModel.calls()[0])).toEqual(["WebFetch", "web_search"]);
    expect(systemText(roleModel.calls()[0]).join("\n")).toContain("You are a careful researcher.");
  });

  it("delegates through the { role, task } tool: the role's tools, instructions and a structured result", async () => {
    const skills = createSkills({ shelf: project.shelf });
    const { tools, spies } = hostTools();
    const roleModel = scriptedModel([
      { calls: [["WebFetch", { url: "https://example.com" }]] },
      { text: "Sources: A, B." },
    ]);
    const boss = scriptedModel([
      { calls: [["delegate", { role: "researcher", task: "Find sources on X" }]] },
      { text: "Done." },
    ]);
    const orchestrator = new Agent({
      id: "orchestrator",
      name: "Orchestrator",
      instructions: "Delegate research.",
      model: boss.model,
      tools: { delegate: skills.delegateTool({ model: roleModel.model, tools }) },
    });
    const result = await orchestrator.generate("Research X", { maxSteps: 5 });

    expect(results(result.toolResults)[0]?.result).toEqual({
      status: "success",
      data: { role: "researcher", text: "Sources: A, B.", tools: ["WebFetch", "web_search"] },
      message: "The researcher sub-agent finished; its answer is data.text.",
    });
    const [first] = roleModel.calls();
    expect(toolNames(first)).toEqual(["WebFetch", "web_search"]);
    expect(systemText(first).join("\n")).toMatch(/^Today is .*\n\nYou are a careful researcher\./s);
    expect(first?.prompt.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "Find sources on X" }],
    });
    expect(spies.WebFetch).toHaveBeenCalledOnce();
    expect(spies.Bash).not.toHaveBeenCalled();
  });

  it("answers a call for a role that is gone with core's UNKNOWN_ROLE, running nothing", async () => {
    const skills = createSkills({ shelf: project.shelf });
    const roleModel = scriptedModel([{ text: "should not run" }]);
    const delegate = skills.delegateTool({ model: roleModel.model, tools: hostTools().tools });
    // The role is deleted after the tool was built (its schema still lists it).
    await rm(join(project.root, ".skillshelf", "skills", "researcher"), { recursive: true });
    await project.shelf.refresh();

    const boss = scriptedModel([
      { calls: [["delegate", { role: "researcher", task: "Find X" }]] },
      { text: "ok" },
    ]);
    const orchestrator = new Agent({
      id: "o",
      name: "o",
      instructions: "",
      model: boss.model,
      tools: { delegate },
    });
    const result = await orchestrator.generate("Research X", { maxSteps: 3 });

    expect(results(result.toolResults)[0]?.result).toMatchObject({
      status: "error",
      error_type: "UNKNOWN_ROLE",
    });
    expect(roleModel.calls()).toHaveLength(0);
  });

  it("refuses to build a delegate tool for a shelf without roles", () => {
    const skills = createSkills({ shelf: { ...project.shelf, roles: () => [] } });
    expect(() => skills.delegateTool({ model: scriptedModel([]).model })).toThrow(/no roles/);
  });
});

describeWithSharedData("role agents record their delegations", () => {
  it("emits a delegated event when the orchestrator calls agent-<role> (Mastra's agents: {…})", async () => {
    const events: SkillEvent[] = [];
    const shelf = await createShelf({
      root: project.root,
      userDirs: [],
      builtinRoles: false,
      events: { emit: (e) => events.push(e) },
    });
    try {
      const skills = createSkills({ shelf });
      const roleModel = scriptedModel([{ text: "Sources: A, B." }]);
      const boss = scriptedModel([
        { calls: [["agent-researcher", { prompt: "Find sources on X" }]] },
        { text: "Done." },
      ]);
      const orchestrator = new Agent({
        id: "orchestrator",
        name: "Orchestrator",
        instructions: "Delegate research.",
        model: boss.model,
        agents: skills.roleAgents({ model: roleModel.model, tools: hostTools().tools }),
      });
      await orchestrator.generate("Research X", { maxSteps: 4 });

      expect(events.filter((e) => e.type === "delegated")).toEqual([
        expect.objectContaining({
          role: "researcher",
          task: "Find sources on X",
          tools: ["WebFetch", "web_search"],
        }),
      ]);
      // The role agent's input went through unchanged.
      expect(roleModel.calls()[0]?.prompt.at(-1)).toMatchObject({
        role: "user",
        content: [{ type: "text", text: "Find sources on X" }],
      });
    } finally {
      await shelf.close();
    }
  });
});
