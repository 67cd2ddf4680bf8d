import fs from "node:fs/promises";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import { skill, tempDir, write } from "../test-utils/skill-sources.js";

async function project() {
  const root = await tempDir();
  await write(root, ".skillshelf/skills/deploy/SKILL.md", skill("deploy"));
  await write(root, ".skillshelf/skills/notes/SKILL.md", skill("notes"));
  return root;
}
const configOf = async (root: string) =>
  JSON.parse(await fs.readFile(path.join(root, ".skillshelf/config.json"), "utf8"));

describe("skillshelf disable / enable", () => {
  it("disable writes the config file, list marks the skill, a shelf does not offer it; enable undoes it", async () => {
    const root = await project();
    const cap = capture(root);
    expect(await main(["disable", "deploy"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("disabled deploy");
    expect(await configOf(root)).toEqual({ disabled: ["deploy"] });

    const list = capture(root);
    expect(await main(["list", "--no-builtins"], list.ctx)).toBe(0);
    expect(list.out()).toMatch(/deploy\s+project\s+\S+SKILL\.md\s+disabled/u);
    expect(list.out()).not.toMatch(/notes.*disabled/u);
    expect(list.out()).toContain("2 skills (2 project), 1 disabled");
    const json = capture(root);
    await main(["list", "--no-builtins", "--json"], json.ctx);
    expect(
      JSON.parse(json.out()).skills.map((s: { name: string; disabled?: boolean }) => [
        s.name,
        s.disabled ?? false,
      ]),
    ).toEqual([
      ["deploy", true],
      ["notes", false],
    ]);

    const shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
    expect(shelf.session({ message: "deploy it", tools: [] }).plan().system).not.toContain("deploy:");
    await shelf.close();

    expect(await main(["enable", "deploy"], capture(root).ctx)).toBe(0);
    expect(await configOf(root)).toEqual({ disabled: [] });
  });

  it("keeps the file's other keys, says when a name is unknown, and never overwrites a broken file", async () => {
    const root = await project();
    await write(
      root,
      ".skillshelf/config.json",
      JSON.stringify({ packageSkills: false, disabled: ["notes"] }),
    );
    const cap = capture(root);
    expect(await main(["disable", "deplyo", "notes"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("no skill named deplyo");
    expect(cap.out()).toContain("notes was already disabled");
    expect(await configOf(root)).toEqual({ packageSkills: false, disabled: ["deplyo", "notes"] });

    await write(root, ".skillshelf/config.json", '{ "disabled": [ }');
    const broken = capture(root);
    expect(await main(["disable", "deploy"], broken.ctx)).toBe(1);
    expect(broken.err()).toContain("it was not changed");
    expect(await fs.readFile(path.join(root, ".skillshelf/config.json"), "utf8")).toBe('{ "disabled": [ }');
    // list says the file is unusable and that every folder skill is off meanwhile.
    const list = capture(root);
    await main(["list", "--no-builtins"], list.ctx);
    expect(list.out()).toContain("every skill from a folder is treated as disabled");

    expect(await main(["disable"], capture(root).ctx)).toBe(2);
  });
});

describe("skillshelf list with package skills", () => {
  it("--package-skills lists a dependency's skills with its package", async () => {
    const root = await tempDir();
    await write(root, "package.json", JSON.stringify({ dependencies: { "team-skills": "1.0.0" } }));
    await write(
      root,
      "node_modules/team-skills/package.json",
      JSON.stringify({ name: "team-skills", skillshelf: { skills: "skills" } }),
    );
    await write(root, "node_modules/team-skills/skills/review/SKILL.md", skill("review"));
    const without = capture(root);
    await main(["list", "--no-builtins"], without.ctx);
    expect(without.out()).not.toContain("review");
    const cap = capture(root);
    expect(await main(["list", "--no-builtins", "--package-skills"], cap.ctx)).toBe(0);
    expect(cap.out()).toMatch(
      /review\s+project\s+node_modules\/team-skills\/skills\/review\/SKILL\.md\s+\(npm team-skills\)/u,
    );
  });

  it("skillshelf trust on the package's folder lets a gated shelf offer its skills", async () => {
    const root = await tempDir();
    const home = await tempDir();
    await write(root, "package.json", JSON.stringify({ dependencies: { "team-skills": "1.0.0" } }));
    await write(
      root,
      "node_modules/team-skills/package.json",
      JSON.stringify({ name: "team-skills", skillshelf: { skills: "skills" } }),
    );
    await write(root, "node_modules/team-skills/skills/review/SKILL.md", skill("review"));
    const open = () =>
      createShelf({
        root,
        userDirs: [],
        events: false,
        packageSkills: true,
        trust: { file: path.join(home, ".skillshelf/trust.json") },
      });
    const before = await open();
    expect(before.trustOf("review")?.status).toBe("untrusted");
    await before.close();
    expect(await main(["trust", "node_modules/team-skills/skills"], capture(root, { home }).ctx)).toBe(0);
    const after = await open();
    expect(after.trustOf("review")?.status).toBe("trusted");
    expect(after.session({ message: "review", tools: [] }).plan().system).toContain("review:");
    await after.close();
  });
});
