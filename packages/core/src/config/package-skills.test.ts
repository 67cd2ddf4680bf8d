/**
 * Skills shipped by npm packages, on a real node_modules: only the project's own
 * dependencies that declare a skills folder inside themselves, as project skills (so the
 * trust gate withholds them), and only when asked.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import { packageSkillFolders } from "./package-skills.js";

const skill = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} when the user asks for ${name}.\n---\nDo ${name}.\n`;

let root: string;
let shelf: Shelf | undefined;

async function write(rel: string, text: string) {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}
const manifest = (name: string, skills?: string) =>
  JSON.stringify({ name, version: "1.0.0", ...(skills !== undefined && { skillshelf: { skills } }) });

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-pkg-skills-"));
  await write(
    "package.json",
    JSON.stringify({
      dependencies: { "team-skills": "1", "@acme/linked": "1", escaping: "1", plain: "1" },
      devDependencies: { "dev-skills": "1" },
    }),
  );
  await write("node_modules/team-skills/package.json", manifest("team-skills", "skills"));
  await write("node_modules/team-skills/skills/review/SKILL.md", skill("review"));
  await write("node_modules/dev-skills/package.json", manifest("dev-skills", "./agent/skills"));
  await write("node_modules/dev-skills/agent/skills/lint-fix/SKILL.md", skill("lint-fix"));
  // pnpm's layout: the package is a link into the store.
  await write(
    "node_modules/.pnpm/@acme+linked@1.0.0/node_modules/@acme/linked/package.json",
    manifest("@acme/linked", "skills"),
  );
  await write(
    "node_modules/.pnpm/@acme+linked@1.0.0/node_modules/@acme/linked/skills/triage/SKILL.md",
    skill("triage"),
  );
  await mkdir(path.join(root, "node_modules/@acme"), { recursive: true });
  await symlink(
    path.join(root, "node_modules/.pnpm/@acme+linked@1.0.0/node_modules/@acme/linked"),
    path.join(root, "node_modules/@acme/linked"),
  );
  // A dependency whose folder climbs out of it, and one whose folder is a link out.
  await write("node_modules/escaping/package.json", manifest("escaping", "../../secret-skills"));
  await write("secret-skills/stolen/SKILL.md", skill("stolen"));
  await write("node_modules/plain/package.json", manifest("plain", "skills"));
  await symlink(path.join(root, "secret-skills"), path.join(root, "node_modules/plain/skills"));
  // Not a dependency of the project (hoisted from somewhere else): never read.
  await write("node_modules/transitive/package.json", manifest("transitive", "skills"));
  await write("node_modules/transitive/skills/sneaky/SKILL.md", skill("sneaky"));
});
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

describe("package skills", () => {
  it("finds the declared folders of the project's dependencies only, inside each package", async () => {
    const folders = await packageSkillFolders(root);
    expect(folders.map((f) => [f.package, path.relative(root, f.dir)])).toEqual([
      ["@acme/linked", "node_modules/@acme/linked/skills"],
      ["dev-skills", "node_modules/dev-skills/agent/skills"],
      ["team-skills", "node_modules/team-skills/skills"],
    ]);
  });

  it("are off by default; packageSkills (or the config file's) loads them as project skills", async () => {
    shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
    expect(shelf.skills()).toEqual([]);
    await shelf.close();

    shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      builtinRoles: false,
      packageSkills: true,
    });
    expect(shelf.skills().map((s) => [s.name, s.scope])).toEqual([
      ["lint-fix", "project"],
      ["review", "project"],
      ["triage", "project"],
    ]);
    await shelf.close();

    await write(".skillshelf/config.json", JSON.stringify({ packageSkills: true, disabled: ["triage"] }));
    shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
    expect(shelf.skills().map((s) => s.name)).toEqual(["lint-fix", "review", "triage"]);
    const plan = shelf.session({ message: "triage this", tools: [] }).plan();
    expect(plan.system).not.toContain("triage:");
    expect(plan.system).toContain("review:");
  });

  it("the trust gate withholds them until trusted, like any project skill", async () => {
    shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      builtinRoles: false,
      packageSkills: true,
      trust: { file: path.join(root, "trust.json") },
    });
    expect(shelf.trustOf("review")?.status).toBe("untrusted");
    expect(shelf.session({ message: "review this", tools: [] }).plan().system).not.toContain("review:");
  });
});
