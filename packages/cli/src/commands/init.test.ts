import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readSkillFile } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-init-")));
}

describe("skillshelf init", () => {
  it("scaffolds .skillshelf/skills/<name>/SKILL.md that passes validate --strict as written", async () => {
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["init", "weather-report"], cap.ctx)).toBe(0);
    const file = path.join(root, ".skillshelf/skills/weather-report/SKILL.md");
    expect(cap.out()).toContain("created .skillshelf/skills/weather-report/SKILL.md");

    const text = await fs.readFile(file, "utf8");
    // Every layer is there as guidance: YAML comments above, Markdown comments in the body.
    for (const layer of ["boundary", "trigger signals", "preconditions", "output", "examples"]) {
      expect(text).toMatch(new RegExp(`^#.*${layer}`, "m"));
    }
    expect(text).toMatch(/^exclusions:/m);
    expect(text).toMatch(/<!--[\s\S]*first[\s\S]*-->/);

    const strict = capture(root);
    expect(await main(["validate", "--strict", ".skillshelf"], strict.ctx)).toBe(0);
    expect(strict.out()).toMatch(/1 file checked \(strict\), no problems/);

    const { skill } = await readSkillFile(file, { mode: "strict", folderName: "weather-report" });
    expect(skill).toMatchObject({ name: "weather-report", version: "0.1.0" });
    expect(skill?.exclusions).toHaveLength(1);
    expect(skill?.examples).toHaveLength(1);
  });

  it("refuses to overwrite an existing skill (exit 1) and leaves it untouched", async () => {
    const root = await tempDir();
    const file = path.join(root, ".skillshelf/skills/notes/SKILL.md");
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, "---\nname: notes\ndescription: Mine.\n---\nKeep me.\n");
    const cap = capture(root);
    expect(await main(["init", "notes"], cap.ctx)).toBe(1);
    expect(cap.err()).toContain("already exists");
    expect(await fs.readFile(file, "utf8")).toContain("Keep me.");
  });

  it("rejects an invalid name with the core rules and a suggestion (exit 2); nothing is written", async () => {
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["init", "My Skill"], cap.ctx)).toBe(2);
    expect(cap.err()).toContain('try "my-skill"');
    const traversal = capture(root);
    expect(await main(["init", "../escape"], traversal.ctx)).toBe(2);
    await expect(fs.readdir(root)).resolves.toEqual([]);
  });

  it("a name YAML would read as another type stays a string", async () => {
    const root = await tempDir();
    expect(await main(["init", "123"], capture(root).ctx)).toBe(0);
    const strict = capture(root);
    expect(await main(["validate", "--strict", "."], strict.ctx)).toBe(0);
  });

  it("defaults the name to the root folder's; --root must be a folder; --user writes under HOME", async () => {
    const parent = await tempDir();
    const root = path.join(parent, "Data Tools");
    await fs.mkdir(root);
    const json = capture(parent);
    expect(await main(["init", "--root", "Data Tools", "--json"], json.ctx)).toBe(0);
    expect(JSON.parse(json.out())).toEqual({
      name: "data-tools",
      file: path.join(root, ".skillshelf/skills/data-tools/SKILL.md"),
    });

    const missing = capture(parent);
    expect(await main(["init", "x", "--root", "nope"], missing.ctx)).toBe(2);
    expect(missing.err()).toContain("does not exist");

    const home = await tempDir();
    const user = capture(parent, { home });
    expect(await main(["init", "mine", "--user"], user.ctx)).toBe(0);
    await expect(fs.stat(path.join(home, ".skillshelf/skills/mine/SKILL.md"))).resolves.toBeTruthy();
    expect(await main(["init", "x", "--user", "--root", "."], capture(parent, { home }).ctx)).toBe(2);
  });
});
