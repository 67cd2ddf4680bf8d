import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { sharedData, skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { parseSkill } from "../parse/parse-skill.js";
import { createShelf } from "../shelf.js";
import type { Diagnostic } from "../types.js";
import { loadSkills } from "./load-skills.js";
import { SkillLoader } from "./loader.js";
import { resolveSources } from "./sources.js";
import { skillText, tempDir, tick, writeSkill } from "./test-utils/fixtures.js";

const DATA = sharedData();

/** A project root and a separate "home", so the machine's real ~/.agents never leaks in. */
async function layout() {
  const root = await tempDir();
  const project = path.join(root, ".skillshelf/skills");
  const projectAgents = path.join(root, ".agents/skills");
  const user = path.join(root, "home/.skillshelf/skills");
  // builtinRoles: false — these tests are about files; the default roles are tested in roles/.
  return { root, project, projectAgents, user, options: { root, userDirs: [user], builtinRoles: false } };
}

const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => d.code);

describe("precedence", () => {
  it("project over user over builtin; a shadowed diagnostic names both files", async () => {
    const { project, user, options } = await layout();
    const projectFile = await writeSkill(project, "deploy", skillText("deploy", "Project deploy."));
    const userFile = await writeSkill(user, "deploy", skillText("deploy", "User deploy."));
    await writeSkill(user, "lint", skillText("lint", "User lint."));
    const shelf = await createShelf({
      ...options,
      builtins: [
        { meta: { name: "lint", description: "Builtin lint." } },
        { meta: { name: "plan", description: "Builtin plan." } },
      ],
    });

    expect(shelf.skills().map((s) => [s.name, s.scope])).toEqual([
      ["deploy", "project"],
      ["lint", "user"],
      ["plan", "builtin"],
    ]);
    expect(shelf.get("deploy")).toMatchObject({ file: projectFile, dir: path.dirname(projectFile) });
    expect(shelf.get("plan")).toMatchObject({ file: "builtin:plan", body: "", locked: false });
    expect(shelf.get("plan")?.dir).toBeUndefined();

    const shadowed = shelf.diagnostics().filter((d) => d.code === "shadowed");
    expect(shadowed).toHaveLength(2);
    const deploy = shadowed.find((d) => d.file === userFile)!;
    expect(deploy.severity).toBe("warning");
    expect(deploy.message).toContain(userFile);
    expect(deploy.message).toContain(projectFile);
    const lint = shadowed.find((d) => d.file === "builtin:lint")!;
    expect(lint.message).toContain(path.join(user, "lint/SKILL.md"));
  });

  it("reports what each winner overrides (loadSkills)", async () => {
    const { project, user, options } = await layout();
    const projectFile = await writeSkill(project, "deploy");
    const userFile = await writeSkill(user, "deploy");
    const result = await loadSkills(options);
    expect(result.overridden).toEqual([
      {
        name: "deploy",
        file: userFile,
        scope: "user",
        by: projectFile,
        byScope: "project",
        reason: "shadowed",
      },
    ]);
    expect(result.sources.map((s) => s.scope)).toEqual(["project", "project", "user"]);
  });

  it("same name twice in one scope: the deterministic winner, and duplicate-name on the other", async () => {
    const { project, projectAgents, options } = await layout();
    const first = await writeSkill(project, "tools/fmt", skillText("fmt", "Category copy."));
    const direct = await writeSkill(project, "fmt", skillText("fmt", "Direct copy."));
    const agents = await writeSkill(projectAgents, "fmt", skillText("fmt", ".agents copy."));
    const shelf = await createShelf(options);

    // .skillshelf/skills before .agents/skills; <root>/<name> before <root>/<category>/<name>.
    expect(shelf.get("fmt")?.file).toBe(direct);
    const duplicates = shelf.diagnostics().filter((d) => d.code === "duplicate-name");
    expect(duplicates.map((d) => d.file).sort()).toEqual([agents, first].sort());
    for (const d of duplicates) expect(d.message).toContain(direct);
    expect(codes(shelf.diagnostics())).not.toContain("shadowed");
  });

  it("a locked builtin cannot be overridden; the attempt gets a locked diagnostic", async () => {
    const { project, user, options } = await layout();
    const projectFile = await writeSkill(project, "reviewer");
    const userFile = await writeSkill(user, "reviewer");
    const shelf = await createShelf({
      ...options,
      builtins: [
        { meta: { name: "reviewer", description: "Reviews code." }, body: "Review it.", locked: true },
      ],
    });
    expect(shelf.get("reviewer")).toMatchObject({ scope: "builtin", locked: true, body: "Review it." });
    const locked = shelf.diagnostics().filter((d) => d.code === "locked");
    expect(locked.map((d) => d.file).sort()).toEqual([projectFile, userFile].sort());
    expect(locked[0]!.message).toContain("locked builtin");
  });

  it("an unlocked builtin from SKILL.md text is overridable", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "helper");
    const shelf = await createShelf({
      ...options,
      builtins: [{ content: skillText("helper", "Builtin helper.") }, { content: "not a skill" }],
    });
    expect(shelf.get("helper")?.scope).toBe("project");
    expect(shelf.diagnostics().find((d) => d.code === "shadowed")?.file).toBe("builtin:helper");
    expect(shelf.diagnostics().find((d) => d.code === "no-frontmatter")?.file).toBe("builtin:#1");
  });
});

describe("layout", () => {
  it("loads <root>/<name> and <root>/<category>/<name>, nothing deeper", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "alpha");
    await writeSkill(project, "writing/beta");
    await writeSkill(project, "a/b/gamma"); // depth 3: not a skill location
    const shelf = await createShelf(options);
    expect(shelf.skills().map((s) => s.name)).toEqual(["alpha", "beta"]);
  });

  it("a skill folder is not descended into (real nested skills from the edge-case corpus)", async (ctx) => {
    skipWithoutSharedData(ctx);
    const shelf = await createShelf({
      root: await tempDir(),
      projectDirs: [path.join(DATA, "parser-edge-cases")],
      userDirs: [],
      builtinRoles: false,
    });
    const nested = shelf.skills().filter((s) => s.file.includes("nested-skill-dirs"));
    expect(nested.map((s) => path.relative(DATA, s.file))).toEqual([
      "parser-edge-cases/nested-skill-dirs/SKILL.md",
    ]);
    // Every edge case is either loaded or reported, with a location.
    const folders = (await fs.readdir(path.join(DATA, "parser-edge-cases"), { withFileTypes: true })).filter(
      (e) => e.isDirectory(),
    );
    const reportedErrors = new Set(
      shelf
        .diagnostics()
        .filter((d) => d.severity === "error")
        .map((d) => d.file),
    );
    for (const folder of folders) {
      const file = path.join(DATA, "parser-edge-cases", folder.name, "SKILL.md");
      const loaded =
        shelf.skills().some((s) => s.file === file) || shelf.diagnostics().some((d) => d.file === file);
      expect(loaded, file).toBe(true);
    }
    expect(reportedErrors.size).toBeGreaterThan(0);
  });

  it("skips hidden folders and node_modules", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "visible");
    await writeSkill(project, ".hidden");
    await writeSkill(project, ".git/inside");
    await writeSkill(project, "node_modules/dep");
    await writeSkill(project, "cat/.secret");
    await writeSkill(project, "cat/node_modules");
    const shelf = await createShelf(options);
    expect(shelf.skills().map((s) => s.name)).toEqual(["visible"]);
  });

  it("accepts lower-case skill.md, preferring SKILL.md when both exist", async () => {
    const { project, options } = await layout();
    const lower = await writeSkill(project, "lower", skillText("lower"), "skill.md");
    await writeSkill(project, "both", skillText("both", "Upper."), "SKILL.md");
    await writeSkill(project, "both", skillText("both", "Lower."), "skill.md");
    await writeSkill(project, "mixed", skillText("mixed"), "Skill.md");
    const shelf = await createShelf(options);
    expect(shelf.get("lower")?.file).toBe(lower);
    expect(shelf.get("both")?.description).toBe("Upper.");
    expect(shelf.get("mixed")).toBeUndefined();
  });

  it("follows a symbolic link inside the root, not one that escapes it", async () => {
    const { root, project, options } = await layout();
    // A link into a hidden store inside the root: followed (the store itself is not scanned).
    await writeSkill(project, ".store/real-one");
    await fs.symlink(path.join(project, ".store/real-one"), path.join(project, "real-one"));
    const outside = path.join(root, "elsewhere");
    await writeSkill(outside, "escaped");
    await fs.symlink(path.join(outside, "escaped"), path.join(project, "escaped"));
    await fs.symlink(
      path.join(outside, "escaped/SKILL.md"),
      path.join(await mkdirp(project, "file-link"), "SKILL.md"),
    );
    await fs.symlink(path.join(outside), path.join(project, "category-link"));
    await fs.symlink(path.join(root, "missing"), path.join(project, "dangling"));

    const shelf = await createShelf(options);
    expect(shelf.skills().map((s) => path.relative(project, s.file))).toEqual(["real-one/SKILL.md"]);
    const escapes = shelf.diagnostics().filter((d) => d.code === "symlink-escape");
    expect(escapes.map((d) => path.relative(project, d.file)).sort()).toEqual([
      "category-link",
      "escaped",
      "file-link/SKILL.md",
    ]);
    expect(escapes[0]!.message).toContain(outside);
    expect(shelf.get("escaped")).toBeUndefined();
  });

  it("treats a missing source folder as empty and .claude/skills as opt-in", async () => {
    const { root, options } = await layout();
    await writeSkill(path.join(root, ".claude/skills"), "claude-only");
    expect((await createShelf(options)).skills()).toEqual([]);
    expect((await createShelf({ ...options, claude: true })).get("claude-only")?.scope).toBe("project");
  });

  it("is lenient by default and strict on request", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "folder-name", skillText("other-name"));
    const lenient = await createShelf(options);
    expect(lenient.get("other-name")).toBeDefined();
    expect(lenient.diagnostics().find((d) => d.code === "name-mismatch")?.severity).toBe("warning");
    const strict = await createShelf({ ...options, mode: "strict" });
    expect(strict.get("other-name")).toBeUndefined();
    expect(strict.diagnostics().find((d) => d.code === "name-mismatch")?.severity).toBe("error");
  });
});

describe("refresh", () => {
  it("nothing changed: same array, no change reported", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "one");
    await writeSkill(project, "cat/two");
    const shelf = await createShelf(options);
    const before = shelf.skills();
    const diagnostics = shelf.diagnostics();
    const result = await shelf.refresh();
    expect(result).toEqual({ changed: false, added: [], updated: [], removed: [], diagnostics: [] });
    expect(shelf.skills()).toBe(before);
    expect(shelf.diagnostics()).toBe(diagnostics);
  });

  it("picks up added skills (root and category level), with a new array", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "one");
    await writeSkill(project, "cat/two");
    const shelf = await createShelf(options);
    const before = shelf.skills();
    await tick();
    await writeSkill(project, "three");
    await writeSkill(project, "cat/four");
    const result = await shelf.refresh();
    expect(result).toMatchObject({ changed: true, added: ["four", "three"], updated: [], removed: [] });
    expect(shelf.skills()).not.toBe(before);
    expect(shelf.skills().map((s) => s.name)).toEqual(["four", "one", "three", "two"]);
    expect((await shelf.refresh()).changed).toBe(false);
  });

  it("picks up a source folder created after the shelf", async () => {
    const { project, options } = await layout();
    const shelf = await createShelf(options);
    expect(shelf.skills()).toEqual([]);
    await writeSkill(project, "late");
    expect((await shelf.refresh()).added).toEqual(["late"]);
  });

  it("picks up an edit in place and an atomic save (rename over the file)", async () => {
    const { project, options } = await layout();
    const file = await writeSkill(project, "one", skillText("one", "First."));
    const shelf = await createShelf(options);
    const first = shelf.get("one");

    await tick();
    await fs.writeFile(file, skillText("one", "Second."));
    const edited = await shelf.refresh();
    expect(edited).toMatchObject({ changed: true, added: [], updated: ["one"], removed: [] });
    expect(shelf.get("one")?.description).toBe("Second.");
    expect(shelf.get("one")).not.toBe(first);

    const temp = `${file}.tmp`;
    await fs.writeFile(temp, skillText("one", "Third!"));
    await fs.rename(temp, file);
    expect((await shelf.refresh()).updated).toEqual(["one"]);
    expect(shelf.get("one")?.description).toBe("Third!");
  });

  it("a touch without a content change keeps the same objects", async () => {
    const { project, options } = await layout();
    const file = await writeSkill(project, "one");
    const shelf = await createShelf(options);
    const before = shelf.skills();
    await tick();
    const now = new Date();
    await fs.utimes(file, now, now);
    const result = await shelf.refresh();
    expect(result.updated).toEqual([]);
    expect(shelf.skills()).toBe(before);
  });

  it("picks up deleted skills, files and whole categories", async () => {
    const { project, options } = await layout();
    await writeSkill(project, "one");
    const twoFile = await writeSkill(project, "two");
    await writeSkill(project, "cat/three");
    await writeSkill(project, "cat/four");
    const shelf = await createShelf(options);
    await tick();
    await fs.rm(path.join(project, "one"), { recursive: true });
    await fs.rm(twoFile);
    await fs.rm(path.join(project, "cat"), { recursive: true });
    const result = await shelf.refresh();
    expect(result).toMatchObject({ changed: true, added: [], removed: ["four", "one", "three", "two"] });
    expect(shelf.skills()).toEqual([]);
  });

  it("a skill folder that loses SKILL.md but gains skill.md keeps the skill", async () => {
    const { project, options } = await layout();
    const upper = await writeSkill(project, "one", skillText("one", "Upper."));
    const shelf = await createShelf(options);
    await fs.rename(upper, path.join(project, "one/skill.md"));
    const result = await shelf.refresh();
    expect(result.updated).toEqual(["one"]);
    expect(shelf.get("one")?.file).toBe(path.join(project, "one/skill.md"));
  });

  it("a broken edit keeps the last good version active and reports the error", async () => {
    const { project, options } = await layout();
    const file = await writeSkill(project, "one", skillText("one", "Good."));
    const shelf = await createShelf(options);
    const good = shelf.get("one");
    // In use (its body read): only then is the last good version whole in memory to keep.
    expect(good?.body).toContain("Steps for one.");
    const array = shelf.skills();

    await tick();
    await fs.writeFile(file, "---\nname: one\ndescription: [unclosed\n---\nbody\n");
    const broken = await shelf.refresh();
    expect(broken.changed).toBe(true);
    expect(broken.updated).toEqual([]);
    expect(codes(broken.diagnostics)).toEqual(expect.arrayContaining(["yaml-syntax", "kept-last-good"]));
    expect(shelf.get("one")).toBe(good);
    expect(shelf.skills()).toBe(array);
    const kept = shelf.diagnostics().find((d) => d.code === "kept-last-good")!;
    expect(kept).toMatchObject({ file, severity: "warning" });
    expect(shelf.diagnostics().find((d) => d.code === "yaml-syntax")).toMatchObject({
      file,
      severity: "error",
    });

    // Fixing it clears both diagnostics and activates the new version.
    await tick();
    await fs.writeFile(file, skillText("one", "Fixed."));
    expect((await shelf.refresh()).updated).toEqual(["one"]);
    expect(shelf.get("one")?.description).toBe("Fixed.");
    expect(codes(shelf.diagnostics())).toEqual([]);
  });

  it("a new file that is broken is skipped with its error", async () => {
    const { project, options } = await layout();
    const shelf = await createShelf(options);
    const file = await writeSkill(project, "bad", "---\nname: bad\n---\n");
    const result = await shelf.refresh();
    expect(result.added).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ code: "missing-description", file, severity: "error" }]);
  });

  it("renaming a skill reports the old name removed and the new one added; shadowing follows", async () => {
    const { project, user, options } = await layout();
    const projectFile = await writeSkill(project, "deploy");
    await writeSkill(user, "deploy");
    const shelf = await createShelf(options);
    expect(codes(shelf.diagnostics())).toContain("shadowed");
    await tick();
    await fs.writeFile(projectFile, skillText("ship", "Renamed.", ""));
    const result = await shelf.refresh();
    expect(result).toMatchObject({ added: ["ship"], removed: [], updated: ["deploy"] });
    expect(shelf.get("deploy")?.scope).toBe("user");
    expect(codes(shelf.diagnostics())).not.toContain("shadowed");
  });

  it("concurrent refreshes are serialised and agree", async () => {
    const { project, options } = await layout();
    const shelf = await createShelf(options);
    await writeSkill(project, "one");
    const [a, b] = await Promise.all([shelf.refresh(), shelf.refresh()]);
    expect(a.added).toEqual(["one"]);
    expect(b.changed).toBe(false);
  });
});

async function mkdirp(parent: string, name: string): Promise<string> {
  const dir = path.join(parent, name);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

describe("odd sources", () => {
  it("a source path that is a file loads nothing and does not count as a change on every refresh", async () => {
    const root = await tempDir();
    const file = path.join(root, "not-a-folder");
    await fs.writeFile(file, "x");
    const shelf = await createShelf({ root, projectDirs: [file], userDirs: [], builtinRoles: false });
    expect(shelf.skills()).toEqual([]);
    expect(await shelf.refresh()).toMatchObject({ changed: false });
  });

  it("a SKILL.md that is not a regular file (folder, FIFO) is reported, never read or waited on", async () => {
    const root = await tempDir();
    const skills = path.join(root, "skills");
    await fs.mkdir(path.join(skills, "dir-skill/SKILL.md"), { recursive: true });
    await fs.mkdir(path.join(skills, "fifo-skill"), { recursive: true });
    execFileSync("mkfifo", [path.join(skills, "fifo-skill/SKILL.md")]);
    const shelf = await createShelf({ root, projectDirs: [skills], userDirs: [], builtinRoles: false });
    expect(shelf.skills()).toEqual([]);
    expect(shelf.diagnostics().map((d) => [path.relative(skills, d.file), d.code])).toEqual([
      ["dir-skill/SKILL.md", "read-error"],
      ["fifo-skill/SKILL.md", "read-error"],
    ]);
    expect((await shelf.refresh()).changed).toBe(false);
  });

  it("a file over the size cap is skipped with file-too-large (handed to readSkillFile, not read whole)", async () => {
    const root = await tempDir();
    const skills = path.join(root, "skills");
    const file = await writeSkill(
      skills,
      "huge",
      skillText("huge", "Huge.", `notes: ${"x".repeat(2 * 1024 * 1024)}\n`),
    );
    await writeSkill(skills, "small");
    const shelf = await createShelf({ root, projectDirs: [skills], userDirs: [], builtinRoles: false });
    expect(shelf.skills().map((s) => s.name)).toEqual(["small"]);
    expect(shelf.diagnostics()).toMatchObject([{ code: "file-too-large", file, severity: "error" }]);
  });
});

describe("very many skills", () => {
  it("140,000 skills of one name resolve to one, each loser reported, without overflowing the stack", async () => {
    const { options } = await layout();
    const builtins = Array.from({ length: 140_000 }, (_, i) => ({
      meta: { name: "same", description: `Copy ${i}.` },
    }));
    const result = await loadSkills({ ...options, builtins });
    expect(result.skills).toHaveLength(1);
    expect(result.overridden).toHaveLength(139_999);
    expect(result.diagnostics.filter((d) => d.code === "duplicate-name")).toHaveLength(139_999);
  }, 300_000);
});

describe("refreshFile", () => {
  it("re-reads the one file: its new version is served, a hand edit elsewhere waits for refresh()", async () => {
    const { project, options } = await layout();
    const deploy = await writeSkill(project, "deploy", skillText("deploy", "Deploy v1."));
    const lint = await writeSkill(project, "lint", skillText("lint", "Lint v1."));
    const loader = new SkillLoader({ sources: resolveSources({ ...options, projectDirs: [project] }) });
    await loader.load();
    await fs.writeFile(deploy, skillText("deploy", "Deploy v3."));
    await fs.writeFile(lint, skillText("lint", "Lint v3."));
    const change = await loader.refreshFile(deploy);
    expect(change).toMatchObject({ changed: true, updated: ["deploy"], added: [], removed: [] });
    expect(loader.get("deploy")?.description).toBe("Deploy v3.");
    expect(loader.get("lint")?.description).toBe("Lint v1.");
    expect((await loader.refresh()).updated).toEqual(["lint"]);
  });

  it("a file that stops loading or changes its name goes through a full resolution", async () => {
    const { project, options } = await layout();
    const deploy = await writeSkill(project, "deploy", skillText("deploy", "Deploy."));
    const loader = new SkillLoader({ sources: resolveSources({ ...options, projectDirs: [project] }) });
    await loader.load();
    expect(loader.get("deploy")?.body).toContain("Steps for deploy."); // in use: kept if it breaks
    await fs.writeFile(deploy, "---\nname: deploy\n---\n");
    const broken = await loader.refreshFile(deploy);
    expect(codes(broken.diagnostics)).toContain("kept-last-good");
    expect(loader.get("deploy")?.description).toBe("Deploy.");
    await fs.writeFile(deploy, skillText("ship", "Ship."));
    const renamed = await loader.refreshFile(deploy);
    expect(renamed).toMatchObject({ added: ["ship"], removed: ["deploy"] });
    expect(loader.skills().map((s) => s.name)).toEqual(["ship"]);
  });
});

describe("files that lose", () => {
  it("a copy read after the file that beats it keeps its own warnings, and wins with its whole body once that file goes", async () => {
    const { project, options } = await layout();
    // <root>/<name> sorts and ranks before <root>/<category>/<name>: the copy is read second.
    const winner = await writeSkill(project, "deploy", skillText("deploy", "Direct deploy."));
    const copy = await writeSkill(
      project,
      "tools/deploy",
      `${skillText("deploy", "Category deploy.", "allowedTools: Read\n")}\nCategory body.\n`,
    );
    const loader = new SkillLoader({ sources: resolveSources({ ...options, projectDirs: [project] }) });
    await loader.load();
    expect(loader.get("deploy")?.file).toBe(winner);
    const own = loader.diagnostics().filter((d) => d.file === copy);
    expect(codes(own).sort()).toEqual(["duplicate-name", "misspelled-security-field"]);

    await fs.rm(path.dirname(winner), { recursive: true });
    expect(await loader.refresh()).toMatchObject({ updated: ["deploy"] });
    const promoted = loader.get("deploy")!;
    expect(promoted).toMatchObject({ file: copy, description: "Category deploy.", allowedTools: [] });
    expect(promoted.body).toContain("Category body.");
    expect(codes(loader.diagnostics())).toEqual(["misspelled-security-field"]);
  });

  it("a role read after an ordinary skill of its name still wins, and one read before it too", async () => {
    const { project, options } = await layout();
    const role = "---\nname: reviewer\ndescription: Reviews changes.\nrole: true\n---\n\nReview the diff.\n";
    const ordinary = skillText("reviewer", "Reviews loosely.");
    await writeSkill(project, "reviewer", ordinary);
    const lateRole = await writeSkill(project, "team/reviewer", role);
    const loader = new SkillLoader({ sources: resolveSources({ ...options, projectDirs: [project] }) });
    await loader.load();
    expect(loader.get("reviewer")).toMatchObject({ file: lateRole, role: true });
    expect(loader.get("reviewer")?.body).toBe("Review the diff.");
    expect(codes(loader.diagnostics())).toEqual(["role-shadowed"]);
  });

  it("a copy that lost wins with its whole body once the winner goes, and a changed copy is read as it is now", async () => {
    const { project, user, options } = await layout();
    const winner = await writeSkill(project, "deploy", skillText("deploy", "Project deploy."));
    const loser = await writeSkill(user, "deploy", `${skillText("deploy", "User deploy.")}\nUser body.\n`);
    const loader = new SkillLoader({ sources: resolveSources({ ...options, projectDirs: [project] }) });
    await loader.load();
    expect(loader.get("deploy")?.file).toBe(winner);
    await fs.rm(path.dirname(winner), { recursive: true });
    const change = await loader.refresh();
    expect(change.updated).toEqual(["deploy"]);
    const promoted = loader.get("deploy")!;
    expect(promoted.file).toBe(loser);
    expect(promoted.body).toContain("User body.");
    expect(promoted.hash).toBe(parseSkill(await fs.readFile(loser, "utf8"), { path: loser }).skill?.hash);

    await writeSkill(project, "deploy", skillText("deploy", "Project deploy again."));
    await loader.refresh();
    await fs.writeFile(loser, `${skillText("deploy", "User deploy v2.")}\nUser body v2.\n`);
    await fs.rm(path.join(project, "deploy"), { recursive: true });
    await loader.refresh();
    expect(loader.get("deploy")).toMatchObject({ file: loser, description: "User deploy v2." });
    expect(loader.get("deploy")?.body).toContain("User body v2.");
  });
});
