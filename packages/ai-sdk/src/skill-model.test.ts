import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Diagnostic, type Shelf } from "@skillshelf/core";
import { generateText, isStepCount, type LanguageModel } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills } from "./index.js";
import { scriptedModel } from "./test-utils/mock-model.js";

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
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-model-"));
  await mkdir(join(root, ".skillshelf/skills/deep-review"), { recursive: true });
  await writeFile(join(root, ".skillshelf/skills/deep-review/SKILL.md"), REVIEW);
  shelf = await createShelf({ root, userDirs: [], events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

/** The host's model activates the skill, then answers; the skill's model answers when asked. */
function models() {
  // Two steps after the activation when the host's model keeps them: the diagnostic is still one.
  const host = scriptedModel((_call, index) =>
    index < 2 ? { toolCalls: [{ name: "skill_deep-review" }] } : { text: "host answer" },
  );
  const strong = scriptedModel(() => ({ text: "strong answer" }));
  return { host, strong };
}

describe("model: a skill's steps run on the model it names", () => {
  it("switches to what resolveModel returns for the steps after activation", async () => {
    const { host, strong } = models();
    const asked: string[] = [];
    const skills = await createSkills({
      shelf,
      resolveModel: (id): LanguageModel | undefined => {
        asked.push(id);
        return id === "strong-model" ? strong : undefined;
      },
    });
    const result = await generateText({
      model: host,
      prompt: "please do a deep review of this change",
      stopWhen: isStepCount(4),
      ...skills.wrap(),
    });
    expect(host.calls).toHaveLength(1);
    expect(strong.calls).toHaveLength(1);
    expect(result.text).toBe("strong answer");
    expect(asked).toEqual(["strong-model"]);
  });

  it("keeps the host's model, and says so once, without a mapping", async () => {
    for (const resolveModel of [undefined, () => undefined]) {
      const { host, strong } = models();
      const diagnostics: Diagnostic[] = [];
      const skills = await createSkills({
        shelf,
        onDiagnostic: (d) => diagnostics.push(d),
        ...(resolveModel && { resolveModel }),
      });
      const result = await generateText({
        model: host,
        prompt: "please do a deep review of this change",
        stopWhen: isStepCount(4),
        ...skills.wrap(),
      });
      expect(result.text).toBe("host answer");
      expect(host.calls).toHaveLength(3);
      expect(strong.calls).toHaveLength(0);
      const notApplied = diagnostics.filter((d) => d.code === "field-not-applied");
      expect(notApplied).toHaveLength(1);
      expect(notApplied[0]?.message).toContain('"strong-model"');
      expect(notApplied[0]?.file).toContain("deep-review");
    }
  });
});
