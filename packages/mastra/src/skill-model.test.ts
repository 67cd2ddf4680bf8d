import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { createShelf, type Diagnostic, type Shelf } from "@skillshelf/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { scriptedModel } from "./test-utils/model.js";

const REVIEW = `---
name: deep-review
description: Review a change in depth on a stronger model.
triggers: [deep review]
model: strong-model
---
Review the change line by line.
`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-model-"));
  await mkdir(join(root, ".skillshelf/skills/deep-review"), { recursive: true });
  await writeFile(join(root, ".skillshelf/skills/deep-review/SKILL.md"), REVIEW);
  shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

/** The agent's model activates the skill (twice: two steps after it), then answers. */
function models() {
  const host = scriptedModel([
    { calls: [["skill_deep-review", {}]] },
    { calls: [["skill_deep-review", {}]] },
    { text: "host answer" },
  ]);
  const strong = scriptedModel([{ text: "strong answer" }]);
  return { host, strong };
}

function agentWith(model: MastraModelConfig, processor: ReturnType<typeof createSkills>["processor"]) {
  return new Agent({
    id: "assistant",
    name: "Assistant",
    instructions: "You review code.",
    model,
    inputProcessors: [processor],
  });
}

describe.each(["generate", "stream"] as const)(
  "model with %s(): a skill's steps run on the model it names",
  (mode) => {
    const run = async (agent: Agent) => {
      const message = "please do a deep review of this change";
      if (mode === "generate") return (await agent.generate(message, { maxSteps: 6 })).text;
      return (await agent.stream(message, { maxSteps: 6 })).text;
    };

    it("switches to what resolveModel returns for the steps after activation", async () => {
      const { host, strong } = models();
      const asked: string[] = [];
      const skills = createSkills({
        shelf,
        onDiagnostic: () => undefined,
        resolveModel: (id) => {
          asked.push(id);
          return id === "strong-model" ? strong.model : undefined;
        },
      });
      expect(await run(agentWith(host.model, skills.processor))).toBe("strong answer");
      expect(host.calls()).toHaveLength(1);
      expect(strong.calls()).toHaveLength(1);
      expect(asked).toEqual(["strong-model"]);
    });

    it("keeps the agent's model, and says so once, without a mapping", async () => {
      for (const resolveModel of [undefined, () => undefined]) {
        const { host, strong } = models();
        const diagnostics: Diagnostic[] = [];
        const skills = createSkills({
          shelf,
          onDiagnostic: (d) => diagnostics.push(d),
          ...(resolveModel && { resolveModel }),
        });
        expect(await run(agentWith(host.model, skills.processor))).toBe("host answer");
        expect(host.calls()).toHaveLength(3);
        expect(strong.calls()).toHaveLength(0);
        const notApplied = diagnostics.filter((d) => d.code === "field-not-applied");
        expect(notApplied).toHaveLength(1);
        expect(notApplied[0]?.message).toContain('"strong-model"');
      }
    });
  },
);
