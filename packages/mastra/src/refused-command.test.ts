/**
 * A "/name" the user typed that core refuses (a role, a typo) reaches the model as a note in
 * the system messages, on every step of that turn.
 */
import { Agent } from "@mastra/core/agent";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel, systemText } from "./test-utils/model.js";

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

describeWithSharedData.each([
  ["/researcher find sources on X", "/researcher", "NOT_USER_INVOCABLE"],
  ["/rename-symbl fooBar bazQux", "/rename-symbl", "NOT_FOUND"],
])('a refused "%s"', (command, typed, errorType) => {
  it.each(["generate", "stream"] as const)(
    "reaches the model as core's <skill_command_refused> note on every step (%s)",
    async (mode) => {
      const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
      const mock = scriptedModel([{ calls: [["Read", { path: "a" }]] }, { text: "ok" }]);
      const agent = new Agent({
        id: "a",
        name: "a",
        instructions: "Help.",
        model: mock.model,
        tools: hostTools().tools,
        inputProcessors: [skills.processor],
      });
      if (mode === "generate") await agent.generate(command, { maxSteps: 3 });
      else await (await agent.stream(command, { maxSteps: 3 })).text;

      expect(mock.calls()).toHaveLength(2);
      for (const call of mock.calls()) {
        const system = systemText(call).join("\n");
        expect(system).toContain(`<skill_command_refused command="${typed}`);
        expect(system).toContain(`error_type="${errorType}"`);
      }
    },
  );
});
