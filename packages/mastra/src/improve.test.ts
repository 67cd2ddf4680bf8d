/**
 * `createSkills({ improve })`: core's improvement analysis at the end of a run, from the
 * processor's `processOutputResult` (the processor in `outputProcessors` too).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { scriptedModel } from "./test-utils/model.js";

const NOTES = `---
name: release-notes
description: Write release notes from the log.
triggers: [release notes]
allowed-tools: Read
---
Read the log, then write the notes.
`;

let project: Project;
beforeEach(async () => {
  project = await createProject({ "release-notes": NOTES });
});
afterEach(async () => {
  await project.cleanup();
});

const file = (name: string) => join(project.root, ".skillshelf", "skills", name, "SKILL.md");

describeWithSharedData.each(["generate", "stream"] as const)("improve with %s()", (mode) => {
  it("asks once per skill the run used (the one the model ended too); nothing is written", async () => {
    const prompts: string[] = [];
    const generate = vi.fn(async ({ prompt }: { prompt: string }) => {
      prompts.push(prompt);
      return JSON.stringify({ proposals: [] });
    });
    const skills = createSkills({
      shelf: project.shelf,
      onDiagnostic: () => undefined,
      improve: { generate, wait: true },
    });
    const mock = scriptedModel([
      { calls: [["skill_review-contract", {}]] },
      { calls: [["skill_release-notes", {}]] },
      { calls: [["end_skill", { name: "release-notes" }]] },
      { text: "Done." },
    ]);
    const agent = new Agent({
      id: "assistant",
      name: "Assistant",
      instructions: "You help.",
      model: mock.model,
      tools: hostTools().tools,
      inputProcessors: [skills.processor],
      outputProcessors: [skills.processor],
    });
    const before = await Promise.all([
      readFile(file("review-contract"), "utf8"),
      readFile(file("release-notes"), "utf8"),
    ]);

    const message = "Review this contract for red flags, then write the release notes";
    if (mode === "generate") await agent.generate(message, { maxSteps: 6 });
    else await (await agent.stream(message, { maxSteps: 6 })).text;

    expect(generate).toHaveBeenCalledTimes(2);
    expect(prompts.some((p) => p.includes('Skill "review-contract"'))).toBe(true);
    expect(prompts.some((p) => p.includes('Skill "release-notes"'))).toBe(true);
    expect(prompts[0]).toContain(message);
    expect(
      await Promise.all([readFile(file("review-contract"), "utf8"), readFile(file("release-notes"), "utf8")]),
    ).toEqual(before);
    expect(await project.shelf.improvements.list({ status: "pending" })).toEqual([]);
  });

  it("is off unless asked", async () => {
    const generate = vi.fn(async () => JSON.stringify({ proposals: [] }));
    const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
    const agent = new Agent({
      id: "assistant",
      name: "Assistant",
      instructions: "You help.",
      model: scriptedModel([{ calls: [["skill_review-contract", {}]] }, { text: "ok" }]).model,
      tools: hostTools().tools,
      inputProcessors: [skills.processor],
      outputProcessors: [skills.processor],
    });
    if (mode === "generate") await agent.generate("Review this contract", { maxSteps: 4 });
    else await (await agent.stream("Review this contract", { maxSteps: 4 })).text;
    expect(generate).not.toHaveBeenCalled();
  });
});
