import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { skillParameters } from "../parameters/skill-parameters.js";
import { createShelf } from "../shelf.js";
import { skillText, tempDir, tick, writeSkill } from "./test-utils/fixtures.js";

const schema = (property: string) =>
  `${JSON.stringify({ type: "object", properties: { [property]: { type: "string" } }, required: [property] })}\n`;

const propertiesOf = (skill: Parameters<typeof skillParameters>[0] | undefined) =>
  Object.keys(skill ? (skillParameters(skill).parameters?.schema.properties ?? {}) : {});

async function shelfWithSchema(refreshCheck: "watch" | "stat") {
  const root = await tempDir();
  const dir = path.join(root, ".skillshelf/skills");
  const file = await writeSkill(dir, "deploy", skillText("deploy", "Deploys the app."));
  const schemaFile = path.join(path.dirname(file), "schema.json");
  await fs.writeFile(schemaFile, schema("target"));
  const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, refreshCheck });
  return { shelf, schemaFile, skillDir: path.dirname(file) };
}

describe("a skill's schema.json is part of its change signature", () => {
  for (const refreshCheck of ["stat", "watch"] as const) {
    it(`an edit to schema.json alone is picked up by the next refresh (refreshCheck: ${refreshCheck})`, async () => {
      const { shelf, schemaFile } = await shelfWithSchema(refreshCheck);
      try {
        expect(propertiesOf(shelf.get("deploy"))).toEqual(["target"]);
        await shelf.refresh(); // the watcher (if any) starts here
        await tick();
        await fs.writeFile(schemaFile, schema("region"));
        const result = await shelf.refresh();
        expect(result.changed).toBe(true);
        expect(propertiesOf(shelf.get("deploy"))).toEqual(["region"]);
      } finally {
        await shelf.close();
      }
    });
  }

  it("adding and removing schema.json is picked up too, and an untouched shelf stays the same", async () => {
    const root = await tempDir();
    const dir = path.join(root, ".skillshelf/skills");
    const file = await writeSkill(dir, "deploy", skillText("deploy", "Deploys the app."));
    const schemaFile = path.join(path.dirname(file), "schema.json");
    const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, refreshCheck: "stat" });
    try {
      expect(propertiesOf(shelf.get("deploy"))).toEqual([]);
      const before = shelf.skills();
      expect((await shelf.refresh()).changed).toBe(false);
      expect(shelf.skills()).toBe(before);

      await fs.writeFile(schemaFile, schema("target"));
      await shelf.refresh();
      expect(propertiesOf(shelf.get("deploy"))).toEqual(["target"]);

      await fs.rm(schemaFile);
      await shelf.refresh();
      expect(propertiesOf(shelf.get("deploy"))).toEqual([]);
    } finally {
      await shelf.close();
    }
  });
});
