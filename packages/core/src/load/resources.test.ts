import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import { listResources } from "./resources.js";
import { tempDir, writeSkill } from "./test-utils/fixtures.js";

describe("listResources", () => {
  it("lists scripts/, references/ and assets/ on demand, not other files", async () => {
    const root = await tempDir();
    const skills = path.join(root, "skills");
    const file = await writeSkill(skills, "pdf");
    const dir = path.dirname(file);
    for (const rel of [
      "scripts/fill.py",
      "references/forms.md",
      "assets/logo.png",
      "assets/deep/a/b.txt",
      "notes.md",
    ]) {
      await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await fs.writeFile(path.join(dir, rel), "x");
    }
    await fs.mkdir(path.join(dir, "scripts/.cache"));
    await fs.writeFile(path.join(dir, "scripts/.cache/junk"), "x");
    await fs.symlink("/etc/hostname", path.join(dir, "references/outside.txt"));

    const shelf = await createShelf({ root, projectDirs: [skills], userDirs: [], builtinRoles: false });
    const skill = shelf.get("pdf")!;
    expect(await listResources(skill)).toEqual([
      "scripts/fill.py",
      "references/forms.md",
      "assets/deep/a/b.txt",
      "assets/logo.png",
    ]);
    expect(await listResources(skill, { limit: 2 })).toEqual(["scripts/fill.py", "references/forms.md"]);
    expect(await listResources(skill, { maxDepth: 1 })).not.toContain("assets/deep/a/b.txt");
  });

  it("has nothing for builtins and missing folders", async () => {
    expect(await listResources({ dir: undefined })).toEqual([]);
    expect(await listResources(path.join(await tempDir(), "missing"))).toEqual([]);
  });
});
