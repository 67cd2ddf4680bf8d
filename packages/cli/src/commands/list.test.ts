import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadSkillsResult } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import { formatDiagnostics } from "./format-diagnostics.js";
import { formatList } from "./list.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-")));
}

async function write(root: string, rel: string, text: string): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

const skill = (name: string) => `---\nname: ${name}\ndescription: Does ${name}.\n---\n\nBody.\n`;

interface ListJson {
  sources: Array<{ dir: string; scope: string }>;
  skills: Array<{
    name: string;
    scope: string;
    file: string;
    shadows: Array<{ file: string; scope: string; reason: string }>;
  }>;
  diagnostics: Array<{ code: string; file: string }>;
}

/** A project with default folders, and a separate home with user skills. */
async function project() {
  const root = await tempDir();
  const home = path.join(root, "home");
  const projectFile = await write(root, ".skillshelf/skills/deploy/SKILL.md", skill("deploy"));
  const agentsFile = await write(root, ".agents/skills/review/SKILL.md", skill("review"));
  const userFile = await write(home, ".agents/skills/deploy/SKILL.md", skill("deploy"));
  const userOnly = await write(home, ".skillshelf/skills/notes/SKILL.md", skill("notes"));
  await write(root, ".skillshelf/skills/broken/SKILL.md", "---\nname: broken\n---\n");
  return { root, home, projectFile, agentsFile, userFile, userOnly };
}

describe("skillshelf list", () => {
  it("defaults: the root's project folders over the home's user folders, with what is shadowed", async () => {
    const p = await project();
    const cap = capture(p.root, { home: p.home });
    expect(await main(["list", "--json", "--no-builtins"], cap.ctx)).toBe(0);
    const json = JSON.parse(cap.out()) as ListJson;
    expect(json.sources.map((s) => [s.scope, path.relative(p.root, s.dir)])).toEqual([
      ["project", ".skillshelf/skills"],
      ["project", ".agents/skills"],
      ["user", "home/.skillshelf/skills"],
      ["user", "home/.agents/skills"],
    ]);
    expect(json.skills.map((s) => [s.name, s.scope, s.file])).toEqual([
      ["deploy", "project", p.projectFile],
      ["notes", "user", p.userOnly],
      ["review", "project", p.agentsFile],
    ]);
    expect(json.skills[0]!.shadows).toEqual([{ file: p.userFile, scope: "user", reason: "shadowed" }]);
    expect(json.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(["shadowed", "missing-description"]),
    );
  });

  it("human output: a table with scope and file, shadowed files underneath, unloadable files after", async () => {
    const p = await project();
    const cap = capture(p.root, { home: p.home });
    expect(await main(["list", "--no-builtins"], cap.ctx)).toBe(0);
    const out = cap.out();
    expect(out).toMatch(/^NAME +SCOPE +FILE$/m);
    expect(out).toMatch(
      /^deploy +project +\.skillshelf\/skills\/deploy\/SKILL\.md\n +shadows user home\/\.agents\/skills\/deploy\/SKILL\.md$/m,
    );
    expect(out).toMatch(/^notes +user +home\/\.skillshelf\/skills\/notes\/SKILL\.md$/m);
    expect(out).toContain(
      "3 skills (2 project, 1 user) from .skillshelf/skills, .agents/skills, home/.skillshelf/skills",
    );
    expect(out).toContain("1 file could not be loaded:");
    expect(out).toMatch(/\.skillshelf\/skills\/broken\/SKILL\.md\n +\d+ +error +missing-description/);
    expect(out).not.toContain("\u001b[");

    // Outside the working folder, home shows as ~.
    const elsewhere = capture(await tempDir(), { home: p.home });
    await main(["list", "--no-builtins", "--root", p.root], elsewhere.ctx);
    expect(elsewhere.out()).toMatch(/^ +shadows user ~\/\.agents\/skills\/deploy\/SKILL\.md$/m);
  });

  it("--project and --user take skill folders (relative to the working folder) and replace the defaults", async () => {
    const p = await project();
    const other = await tempDir();
    const mine = await write(other, "team-skills/deploy/SKILL.md", skill("deploy"));
    const cap = capture(p.root, { home: p.home });
    await main(
      [
        "list",
        "--json",
        "--no-builtins",
        "--project",
        path.relative(p.root, path.join(other, "team-skills")),
        "--user",
        ".agents/skills",
      ],
      cap.ctx,
    );
    const json = JSON.parse(cap.out()) as ListJson;
    expect(json.skills.map((s) => [s.name, s.scope, s.file])).toEqual([
      ["deploy", "project", mine],
      ["review", "user", p.agentsFile],
    ]);
  });

  it("--root moves the project root; builtin roles are listed unless --no-builtins", async () => {
    const p = await project();
    const cap = capture(os.tmpdir(), { home: p.home });
    await main(["list", "--json", "--root", p.root], cap.ctx);
    const json = JSON.parse(cap.out()) as ListJson;
    expect(json.skills.find((s) => s.name === "deploy")?.file).toBe(p.projectFile);
    const builtins = json.skills.filter((s) => s.scope === "builtin");
    expect(builtins.length).toBeGreaterThan(0);
    for (const b of builtins) expect(b.file).toBe(`builtin:${b.name}`);
  });

  it("lists the example skills shipped in the repo", async () => {
    const cap = capture(REPO);
    expect(
      await main(
        ["list", "--project", "examples/skills", "--user", "examples/none", "--no-builtins"],
        cap.ctx,
      ),
    ).toBe(0);
    expect(cap.out()).toMatch(/^batch-rename +project +examples\/skills\/batch-rename\/SKILL\.md$/m);
    expect(cap.out()).toContain("3 skills (3 project)");
    expect(cap.out()).not.toContain("could not be loaded");
  });

  it("bad usage exits 2", async () => {
    const cap = capture(REPO);
    expect(await main(["list", "--project"], cap.ctx)).toBe(2);
    expect(await main(["list", "stray"], cap.ctx)).toBe(2);
    expect(cap.err()).toContain("Usage: skillshelf list");
  });
});

describe("skillshelf list at scale", () => {
  it("lists 140,000 skills, each overriding one file, without overflowing the stack", async () => {
    const root = await tempDir();
    const cap = capture(root);
    const skills = Array.from({ length: 140_000 }, (_, i) => ({
      name: `skill-${i}`,
      scope: "project" as const,
      file: path.join(root, `a/skill-${i}/SKILL.md`),
    }));
    const overridden = skills.map((s) => ({
      name: s.name,
      file: path.join(root, `b/${s.name}/SKILL.md`),
      scope: "user" as const,
      by: s.file,
      byScope: "project" as const,
      reason: "shadowed" as const,
    }));
    const text = formatList(
      { skills, overridden, diagnostics: [], sources: [] } as unknown as LoadSkillsResult,
      cap.ctx,
    );
    const lines = text.split("\n");
    expect(lines.filter((l) => l.includes("shadows user"))).toHaveLength(140_000);
    expect(lines.at(-2)).toBe("140000 skills (140000 project) from no folders");
  });

  it("prints one file's 140,000 diagnostics", async () => {
    const cap = capture(await tempDir());
    const diagnostics = Array.from({ length: 140_000 }, (_, i) => ({
      severity: "error" as const,
      code: "yaml-syntax" as const,
      message: `problem ${i}`,
      file: "/x/SKILL.md",
      line: i + 1,
      hint: "fix it",
    }));
    expect(formatDiagnostics(diagnostics, cap.ctx).split("\n")).toHaveLength(1 + 2 * 140_000);
  });
});
