import { Agent } from "@mastra/core/agent";
import { createSkill } from "@mastra/core/skills";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MASTRA_SKILL_TOOLS } from "./native-skills.js";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel, systemText, toolNames } from "./test-utils/model.js";

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

function agentWithBoth(nativeName: string) {
  const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
  const mock = scriptedModel([{ calls: [["skill_review-contract", {}]] }, { text: "ok" }]);
  const agent = new Agent({
    id: "assistant",
    name: "Assistant",
    instructions: "Be useful.",
    model: mock.model,
    tools: hostTools().tools,
    skills: [
      createSkill({ name: nativeName, description: "Native Mastra skill.", instructions: "Native body." }),
    ],
    inputProcessors: [skills.processor],
  });
  return { skills, agent, mock };
}

describeWithSharedData("coexistence with Mastra's built-in skills", () => {
  it("keeps both tool sets side by side, and still restricts after a skillshelf activation", async () => {
    const { agent, mock } = agentWithBoth("meeting-notes");
    await agent.generate("Please review this contract for red flags", { maxSteps: 4 });

    const [first, second] = mock.calls();
    expect(toolNames(first)).toEqual(
      expect.arrayContaining([...MASTRA_SKILL_TOOLS, "skill_review-contract"]),
    );
    // Mastra's catalog and ours are separate system messages.
    expect(systemText(first).join("\n")).toContain("meeting-notes");
    expect(systemText(first).join("\n")).toContain("review-contract");
    // skillshelf's whitelist applies to every tool the agent has, Mastra's skill tools included.
    expect(toolNames(second).filter((n) => (MASTRA_SKILL_TOOLS as readonly string[]).includes(n))).toEqual(
      [],
    );
  });

  it("never lets a skill's activation tool replace one of Mastra's skill tools", async () => {
    // A skillshelf skill named "search" would naively become `skill_search`, Mastra's own tool.
    await project.cleanup();
    project = await createProject({
      search: "---\nname: search\ndescription: Search the company wiki for a topic.\n---\nSearch the wiki.\n",
    });
    const { agent, mock } = agentWithBoth("meeting-notes");
    await agent.generate("search the company wiki for the holiday policy", { maxSteps: 2 });

    const tools = mock.calls()[0]?.tools ?? [];
    const skillSearch = tools.filter((t) => t.name === "skill_search");
    expect(skillSearch).toHaveLength(1);
    expect(JSON.stringify(skillSearch[0])).not.toContain("company wiki");
    // The skill is still on offer, under a name of its own.
    const ours = tools.find((t) => JSON.stringify(t).includes("company wiki"));
    expect(ours?.name).toMatch(/^skill_search_[0-9a-f]{8}$/);
  });

  it("reports a skill that exists in both", async () => {
    const { skills, agent } = agentWithBoth("review-contract");
    const diagnostics = await skills.checkNativeSkills(agent);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: "warning", code: "duplicate-name" });
    expect(diagnostics[0]?.message).toContain('Skill "review-contract"');
    expect(diagnostics[0]?.file).toMatch(/review-contract[/\\]SKILL\.md$/);

    expect(await agentWithBoth("meeting-notes").skills.checkNativeSkills(agent)).toHaveLength(1);
    const other = agentWithBoth("meeting-notes");
    expect(await other.skills.checkNativeSkills(other.agent)).toEqual([]);
  });
});
