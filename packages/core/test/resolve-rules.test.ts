/**
 * The rules that decide which file a name resolves to, on real folders: duplicates say how
 * many files share the name and which one is used, `prefer` pins one, and an ordinary skill
 * never replaces a role (the builtin roles included).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSkills } from "../src/load/load-skills.js";
import { preferredFiles, type ResolveEntry, resolveSkills } from "../src/load/resolve.js";
import { readSkillFile } from "../src/parse/read-skill-file.js";
import { builtinRoleSkills } from "../src/roles/builtin-roles.js";
import type { Skill } from "../src/types.js";

let root: string;
const skills = () => join(root, ".skillshelf", "skills");

async function skill(folder: string, front: string): Promise<string> {
  const dir = join(skills(), folder);
  await mkdir(dir, { recursive: true });
  const file = join(dir, "SKILL.md");
  await writeFile(file, `---\n${front}\n---\nDo it.\n`);
  return file;
}

const load = () => loadSkills({ root, userDirs: [], builtins: builtinRoleSkills() });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-resolve-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("duplicates", () => {
  it("name the file used and how many files share the name", async () => {
    const used = await skill("a/code-review", "name: code-review\ndescription: A.");
    const second = await skill("b/code-review", "name: code-review\ndescription: B.");
    await skill("c/code-review", "name: code-review\ndescription: C.");
    const result = await load();
    expect(result.skills.find((s) => s.name === "code-review")?.file).toBe(used);
    const duplicates = result.diagnostics.filter((d) => d.code === "duplicate-name");
    expect(duplicates).toHaveLength(2);
    expect(duplicates[0]!.file).toBe(second);
    expect(duplicates[0]!.message).toBe(
      `'code-review' is defined by 3 files in the project scope; ${used} is used (the first by source folder, then folder depth, then path), ${second} is ignored.`,
    );
  });

  it("`prefer` pins the file used, by folder or file, relative to the root", async () => {
    const first = await skill("a/code-review", "name: code-review\ndescription: A.");
    const pinned = await skill("team/code-review", "name: code-review\ndescription: Team.");
    const entries = await entriesOf([first, pinned]);
    for (const target of [
      ".skillshelf/skills/team/code-review",
      ".skillshelf/skills/team/code-review/SKILL.md",
    ]) {
      const resolution = resolveSkills(entries, { prefer: preferredFiles({ "code-review": target }, root) });
      expect(
        resolution.skills.map((s) => s.file),
        target,
      ).toEqual([pinned]);
      expect(resolution.diagnostics.map((d) => [d.file, d.code])).toEqual([[first, "duplicate-name"]]);
      expect(resolution.diagnostics[0]!.message).toContain(`${pinned} is used (pinned by \`prefer\`)`);
    }
  });

  it("a `prefer` that matches no file is reported, and the usual order decides", async () => {
    const first = await skill("a/code-review", "name: code-review\ndescription: A.");
    const second = await skill("b/code-review", "name: code-review\ndescription: B.");
    const resolution = resolveSkills(await entriesOf([second, first]), {
      prefer: preferredFiles({ "code-review": "nowhere" }, root),
    });
    expect(resolution.skills.map((s) => s.file)).toEqual([first]);
    const unmatched = resolution.diagnostics.find((d) => d.file === join(root, "nowhere"))!;
    expect(unmatched.message).toContain("`prefer` pins");
    expect(unmatched.message).toContain(`${first} is used`);
  });
});

describe("roles", () => {
  for (const name of ["researcher", "developer", "reviewer"]) {
    it(`an ordinary project skill named '${name}' does not replace the builtin role`, async () => {
      const file = await skill(name, `name: ${name}\ndescription: My own ${name} checklist.`);
      const result = await load();
      const resolved = result.skills.find((s) => s.name === name)!;
      expect(resolved.role).toBe(true);
      expect(resolved.scope).toBe("builtin");
      const error = result.diagnostics.find((d) => d.file === file)!;
      expect(error).toMatchObject({ severity: "error", code: "role-shadowed" });
      expect(error.message).toBe(
        `'${name}' is a role (builtin:${name}); the ordinary skill ${file} cannot replace it and is ignored.`,
      );
      expect(result.overridden).toContainEqual(
        expect.objectContaining({ file, reason: "role-shadowed", by: `builtin:${name}` }),
      );
    });
  }

  it("a project role replaces the builtin role, as before", async () => {
    const file = await skill("researcher", "name: researcher\ndescription: Our researcher.\nrole: true");
    const result = await load();
    expect(result.skills.find((s) => s.name === "researcher")?.file).toBe(file);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("any role on the shelf is protected, not only the builtins, and `prefer` cannot pin past it", async () => {
    const role = await skill("roles/triage", "name: triage\ndescription: Triage agent.\nrole: true");
    const ordinary = await skill("triage", "name: triage\ndescription: Triage checklist.");
    const resolution = resolveSkills(await entriesOf([ordinary, role]), {
      prefer: preferredFiles({ triage: ordinary }, root),
    });
    expect(resolution.skills.map((s) => s.file)).toEqual([role]);
    expect(resolution.diagnostics).toEqual([
      expect.objectContaining({ file: ordinary, code: "role-shadowed", severity: "error" }),
    ]);
  });
});

/** The files as the loader hands them to resolution: parsed, project scope, depth under the root. */
async function entriesOf(files: readonly string[]): Promise<ResolveEntry[]> {
  const entries: ResolveEntry[] = [];
  for (const file of files) {
    const { skill: parsed } = await readSkillFile(file);
    if (!parsed) throw new Error(`${file} did not parse`);
    const skill: Skill = { ...parsed, scope: "project", locked: false, dir: dirname(file) };
    entries.push({ skill, rank: 0, depth: relative(skills(), file).split(sep).length - 1 });
  }
  return entries;
}
