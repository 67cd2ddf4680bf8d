import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const workflow = `---
name: release
description: Releases the app in two steps.
steps:
  - { id: plan, input: [args], output: plan, run: model }
  - { id: ship, input: [plan], output: shipped, run: model }
---
body
`;

async function shelfOf(write: (dir: string) => Promise<void>) {
  const root = await tempDir();
  const dir = path.join(root, ".skillshelf/skills");
  await write(dir);
  return createShelf({ root, userDirs: [], builtinRoles: false, events: false });
}

describe("load-time diagnostics from the skill's folder", () => {
  it("a workflow skill whose step file is missing is reported when the shelf loads, located at its SKILL.md", async () => {
    let file = "";
    const shelf = await shelfOf(async (dir) => {
      file = await writeSkill(dir, "release", workflow);
      await fs.mkdir(path.join(path.dirname(file), "steps"));
      await fs.writeFile(path.join(path.dirname(file), "steps/01-plan.md"), "Plan it.");
    });
    try {
      const steps = shelf.diagnostics().filter((d) => d.code === "missing-step-file");
      expect(steps).toHaveLength(1);
      expect(steps[0]).toMatchObject({ severity: "error", file });
      expect(steps[0]!.message).toContain("steps/02-ship.md");
    } finally {
      await shelf.close();
    }
  });

  it("a broken schema.json is reported when the shelf loads, and a good one says nothing", async () => {
    let broken = "";
    const shelf = await shelfOf(async (dir) => {
      const file = await writeSkill(dir, "deploy", skillText("deploy", "Deploys the app."));
      broken = path.join(path.dirname(file), "schema.json");
      await fs.writeFile(broken, '{ "type": "object", ');
      const good = await writeSkill(dir, "lint", skillText("lint", "Lints the code."));
      await fs.writeFile(path.join(path.dirname(good), "schema.json"), '{ "type": "object" }');
    });
    try {
      const parameters = shelf.diagnostics().filter((d) => d.code === "invalid-parameters");
      expect(parameters.map((d) => d.file)).toEqual([broken]);
      expect(parameters[0]!.message).toContain("not valid JSON");
    } finally {
      await shelf.close();
    }
  });

  it("a frontmatter parameters: schema that cannot be used is reported when the shelf loads", async () => {
    let file = "";
    const shelf = await shelfOf(async (dir) => {
      file = await writeSkill(
        dir,
        "deploy",
        skillText("deploy", "Deploys the app.", "parameters:\n  type: object\n  properties: 3\n"),
      );
    });
    try {
      const parameters = shelf.diagnostics().filter((d) => d.code === "invalid-parameters");
      expect(parameters.length).toBeGreaterThan(0);
      expect(parameters.every((d) => d.file === file)).toBe(true);
    } finally {
      await shelf.close();
    }
  });
});
