/** At most one session object per model call: the processor opens one per run and reuses it. */
import { Agent } from "@mastra/core/agent";
import type { Session } from "@skillshelf/core";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel } from "./test-utils/model.js";

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

describeWithSharedData.each(["generate", "stream"] as const)("sessions per run (%s)", (mode) => {
  it("opens one session for 3 model calls with an activation and 2 host tool calls", async () => {
    const opened = vi.spyOn(project.shelf, "openSession");
    const built = vi.spyOn(project.shelf, "session");
    const planned: Session[] = [];
    const skills = createSkills({
      shelf: project.shelf,
      onDiagnostic: () => undefined,
      onPlan: (_plan, { session }) => planned.push(session),
    });
    const { tools, spies } = hostTools();
    const mock = scriptedModel([
      { calls: [["skill_review-contract", {}]] },
      {
        calls: [
          ["Read", { path: "contract.pdf" }],
          ["WebFetch", { url: "https://example.com" }],
        ],
      },
      { text: "Reviewed." },
    ]);
    const agent = new Agent({
      id: "a",
      name: "a",
      instructions: "Help.",
      model: mock.model,
      tools,
      inputProcessors: [skills.processor],
    });
    const message = "Please review this contract for red flags";
    if (mode === "generate") await agent.generate(message, { maxSteps: 5 });
    else await (await agent.stream(message, { maxSteps: 5 })).text;

    expect(mock.calls()).toHaveLength(3);
    expect(spies.Read).toHaveBeenCalledOnce();
    expect(spies.WebFetch).toHaveBeenCalledOnce();
    // openSession builds its session through shelf.session when it is not spied apart.
    expect(opened).toHaveBeenCalledTimes(1);
    expect(built.mock.calls.length).toBeLessThanOrEqual(1);
    expect(planned).toHaveLength(3);
    expect(new Set(planned).size).toBe(1);
  });
});
