import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { skillParameters } from "../parameters/skill-parameters.js";
import { createShelf, type ShelfOptions } from "../shelf.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const propertiesOf = (skill: Parameters<typeof skillParameters>[0] | undefined) =>
  Object.keys(skill ? (skillParameters(skill).parameters?.schema.properties ?? {}) : {});

/** Frontmatter parameters that are stricter than the schema.json that overrides them. */
const STRICT = "parameters:\n  type: object\n  properties:\n    week: { type: string }\n  required: [week]\n";

async function project() {
  const root = await tempDir("skillshelf-prebuilt-schema-");
  const skills = path.join(root, ".skillshelf/skills");
  const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
  return { root, skills, options };
}

describe("a prebuilt start's schema.json baseline", () => {
  for (const refreshCheck of ["stat", "watch"] as const) {
    it(`a schema.json the build did not see, used and then removed, is a change (refreshCheck ${refreshCheck})`, async () => {
      const { root, skills, options } = await project();
      const file = await writeSkill(skills, "report", skillText("report", "Writes the report.", STRICT));
      await buildPrebuiltShelf({ root, userDirs: [] });
      // Added after the build: the prebuilt says the folder has none.
      const schema = path.join(path.dirname(file), "schema.json");
      await fs.writeFile(schema, `${JSON.stringify({ type: "object", properties: { anything: {} } })}\n`);

      const shelf = await createShelf({ ...options, refreshCheck });
      expect(propertiesOf(shelf.get("report"))).toEqual(["anything"]);
      // Back to the frontmatter's stricter parameters.
      await fs.rm(schema);
      await shelf.refresh();
      expect(propertiesOf(shelf.get("report"))).toEqual(["week"]);
      await shelf.close();
    });
  }

  for (const refreshCheck of ["stat", "watch"] as const) {
    it(`a schema.json the build did not see, in a skill not yet used, makes the next refresh read that skill again (refreshCheck ${refreshCheck})`, async () => {
      const { root, skills, options } = await project();
      const file = await writeSkill(skills, "notes", skillText("notes", "Takes notes."));
      await writeSkill(skills, "other", skillText("other", "Does other things."));
      await buildPrebuiltShelf({ root, userDirs: [] });
      await fs.writeFile(
        path.join(path.dirname(file), "schema.json"),
        `${JSON.stringify({ type: "object", properties: { topic: { type: "string" } } })}\n`,
      );
      const shelf = await createShelf({ ...options, refreshCheck });
      const change = await shelf.refresh();
      expect(change.updated).toEqual(["notes"]);
      expect(propertiesOf(shelf.get("notes"))).toEqual(["topic"]);
      expect((await shelf.refresh()).changed).toBe(false);
      await shelf.close();
    });
  }
});
