/**
 * `createSkills({ improve })`: core's improvement analysis after a run, from the `onEnd`
 * that `wrap()` returns (composed with yours) or from `skills.afterRun` by hand.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { generateText, isStepCount, type ModelMessage } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSkills } from "./index.js";
import { hostTools } from "./test-utils/fixtures.js";
import { scriptedModel } from "./test-utils/mock-model.js";

const skill = (name: string, trigger: string) => `---
name: ${name}
description: The ${name} task.
triggers: [${trigger}]
allowed-tools: read_file
---
Do the ${name} task with read_file.
`;

const ask = (text: string): ModelMessage[] => [{ role: "user", content: text }];

function analyst() {
  const prompts: string[] = [];
  const generate = vi.fn(async ({ prompt }: { prompt: string }) => {
    prompts.push(prompt);
    return JSON.stringify({ proposals: [] });
  });
  return { generate, prompts };
}

describe("improve: one analysis per skill the run used", () => {
  let root: string;
  let shelf: Shelf;
  const file = (name: string) => join(root, ".skillshelf", "skills", name, "SKILL.md");
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-improve-"));
    for (const [name, trigger] of [
      ["audit", "audit"],
      ["release-notes", "release notes"],
    ] as const) {
      await mkdir(join(root, ".skillshelf", "skills", name), { recursive: true });
      await writeFile(file(name), skill(name, trigger));
    }
    shelf = await createShelf({ root, userDirs: [], events: false });
  });
  afterEach(async () => {
    await shelf.close();
    await rm(root, { recursive: true, force: true });
  });

  const script = () =>
    scriptedModel((_call, i) => {
      if (i === 0) return { toolCalls: [{ name: "skill_audit" }] };
      if (i === 1) return { toolCalls: [{ name: "skill_release-notes" }] };
      if (i === 2) return { toolCalls: [{ name: "end_skill", input: { name: "release-notes" } }] };
      return { text: "Done." };
    });

  it("wrap()'s onEnd asks once per used skill, then calls yours; nothing is written", async () => {
    const { generate, prompts } = analyst();
    const mine = vi.fn();
    const skills = await createSkills({ shelf, onDiagnostic: () => {}, improve: { generate, wait: true } });
    const before = await Promise.all([
      readFile(file("audit"), "utf8"),
      readFile(file("release-notes"), "utf8"),
    ]);

    await generateText({
      model: script(),
      messages: ask("audit the code and write the release notes"),
      stopWhen: isStepCount(6),
      ...skills.wrap({ tools: hostTools(), onEnd: mine }),
    });

    expect(generate).toHaveBeenCalledTimes(2);
    expect(prompts.some((p) => p.includes('Skill "audit"'))).toBe(true);
    expect(prompts.some((p) => p.includes('Skill "release-notes"'))).toBe(true);
    expect(prompts[0]).toContain("audit the code and write the release notes");
    expect(mine).toHaveBeenCalledOnce();
    expect(
      await Promise.all([readFile(file("audit"), "utf8"), readFile(file("release-notes"), "utf8")]),
    ).toEqual(before);
    expect(await shelf.improvements.list({ status: "pending" })).toEqual([]);
  });

  it("is off unless asked: no onEnd of ours, no analysis; skills.afterRun does it by hand", async () => {
    const { generate } = analyst();
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const wrapped = skills.wrap({ tools: hostTools() });
    expect(wrapped.onEnd).toBeUndefined();

    const result = await generateText({
      model: scriptedModel((_call, i) =>
        i === 0 ? { toolCalls: [{ name: "skill_audit" }] } : { text: "Audited." },
      ),
      messages: ask("audit the code"),
      stopWhen: isStepCount(6),
      ...wrapped,
    });
    expect(generate).not.toHaveBeenCalled();

    const run = await skills.afterRun([...ask("audit the code"), ...result.responseMessages], {
      generate,
      wait: true,
    });
    expect(run.analysed).toEqual(["audit"]);
    expect(generate).toHaveBeenCalledTimes(1);
  });
});
