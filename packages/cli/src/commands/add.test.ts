import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sha256 } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import { MAX_SKILL_FOLDER_FILES } from "./skill-copy.js";
import type { SkillsLock } from "./skills-lock.js";

async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-add-")));
}

async function write(root: string, rel: string, text: string): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

const skill = (name: string, body = "1. Do it.") =>
  `---\nname: ${name}\ndescription: Does ${name} when asked. Not for anything else.\nversion: 1.0.0\n---\n\n${body}\n`;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/** A repository with two committed skills (one with a script) and one uncommitted file. */
async function repository(): Promise<{ repo: string; commit: string }> {
  const repo = await tempDir();
  git(repo, "init", "-q");
  await write(repo, "skills/deploy/SKILL.md", skill("deploy"));
  await write(repo, "skills/deploy/scripts/run.sh", "#!/bin/sh\necho deploy\n");
  await write(repo, "skills/notes/SKILL.md", skill("notes"));
  await write(repo, "skills/notes/references/nested/SKILL.md", skill("nested"));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "skills");
  await write(repo, "skills/deploy/uncommitted.txt", "not in the commit\n");
  return { repo, commit: git(repo, "rev-parse", "HEAD").trim() };
}

const readLock = async (root: string) =>
  JSON.parse(await fs.readFile(path.join(root, ".skillshelf/skills.lock.json"), "utf8")) as SkillsLock;

describe("skillshelf add", () => {
  it("installs a local git repository's committed skills, with provenance and a history baseline", async () => {
    const { repo, commit } = await repository();
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["add", repo], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("2 skills installed");
    expect(cap.out()).toContain("skillshelf trust");

    const skills = path.join(root, ".skillshelf/skills");
    expect((await fs.readdir(skills)).sort()).toEqual(["deploy", "notes"]);
    // Only what was committed; a nested SKILL.md stays a resource of its skill.
    await expect(fs.stat(path.join(skills, "deploy/uncommitted.txt"))).rejects.toThrow();
    await expect(fs.stat(path.join(skills, "notes/references/nested/SKILL.md"))).resolves.toBeTruthy();
    expect(await fs.readFile(path.join(skills, "deploy/scripts/run.sh"), "utf8")).toContain("echo deploy");

    const lock = await readLock(root);
    expect(lock.skills.deploy).toMatchObject({ source: repo, kind: "git", commit, path: "skills/deploy" });
    expect(lock.skills.deploy!.files).toEqual({
      "SKILL.md": sha256(skill("deploy")),
      "scripts/run.sh": sha256("#!/bin/sh\necho deploy\n"),
    });

    // The installed content is the first kept version: a hand edit can be diffed and rolled back.
    await fs.appendFile(path.join(skills, "deploy/SKILL.md"), "\n2. A hand edit.\n");
    const history = capture(root);
    expect(await main(["history", "deploy", "--json"], history.ctx)).toBe(0);
    expect(JSON.parse(history.out()).versions.length).toBeGreaterThanOrEqual(2);
    expect(await main(["rollback", "deploy", "~1"], capture(root).ctx)).toBe(0);
    expect(await fs.readFile(path.join(skills, "deploy/SKILL.md"), "utf8")).not.toContain("A hand edit");
  });

  it("refuses a name already installed without --force (nothing installed); --force replaces and keeps the old version", async () => {
    const { repo } = await repository();
    const root = await tempDir();
    await write(root, ".skillshelf/skills/notes/SKILL.md", skill("notes", "1. My own notes."));
    const cap = capture(root);
    expect(await main(["add", repo], cap.ctx)).toBe(1);
    expect(cap.err()).toContain(".skillshelf/skills/notes already exists; nothing was installed");
    await expect(fs.stat(path.join(root, ".skillshelf/skills/deploy"))).rejects.toThrow();

    expect(await main(["add", repo, "--force"], capture(root).ctx)).toBe(0);
    expect(await fs.readFile(path.join(root, ".skillshelf/skills/notes/SKILL.md"), "utf8")).not.toContain(
      "My own notes",
    );
    const history = capture(root);
    await main(["history", "notes", "--json"], history.ctx);
    expect(JSON.parse(history.out()).versions).toHaveLength(2);
    const leftovers = (await fs.readdir(path.join(root, ".skillshelf/skills"))).filter((n) =>
      n.startsWith("."),
    );
    expect(leftovers).toEqual([]);
  });

  it("a plain folder; links are not followed or copied; --user installs under HOME", async () => {
    const source = await tempDir();
    await write(source, "SKILL.md", skill("solo"));
    const secret = await write(await tempDir(), "id_rsa", "PRIVATE KEY");
    await fs.symlink(secret, path.join(source, "key"));
    const home = await tempDir();
    const cap = capture(await tempDir(), { home });
    expect(await main(["add", source, "--user", "--json"], cap.ctx)).toBe(0);
    const report = JSON.parse(cap.out());
    expect(report).toMatchObject({
      scope: "user",
      commit: null,
      installed: [{ name: "solo", skipped: ["key"] }],
    });
    const installed = path.join(home, ".skillshelf/skills/solo");
    expect(await fs.readdir(installed)).toEqual(["SKILL.md"]);
    const lock = JSON.parse(await fs.readFile(path.join(home, ".skillshelf/skills.lock.json"), "utf8"));
    expect(lock.skills.solo).toMatchObject({ kind: "folder", path: "." });
  });

  it("bad input: a missing source or remote URL is bad usage; a source with a broken or badly named skill installs nothing", async () => {
    const root = await tempDir();
    expect(await main(["add", "nowhere"], capture(root).ctx)).toBe(2);
    const remote = capture(root);
    expect(await main(["add", "ext::sh -c touch% /tmp/pwned"], remote.ctx)).toBe(2);
    expect(await main(["add", "ext::sh -c touch% /tmp/pwned#main"], capture(root).ctx)).toBe(2);
    expect(await main(["add", "http://example.com/skills.git"], capture(root).ctx)).toBe(2);
    expect(await main(["add", "git://example.com/skills.git"], capture(root).ctx)).toBe(2);
    const password = capture(root);
    expect(await main(["add", "https://me:secret@example.com/skills.git"], password.ctx)).toBe(2);
    expect(password.err()).toContain("credential helper");
    for (const spec of [
      "npm:x@https://example.com/x.tgz",
      "npm:x@file:../x",
      "npm:../x",
      "npm:x@github:a/b",
    ]) {
      expect(await main(["add", spec], capture(root).ctx), spec).toBe(2);
    }

    const source = await tempDir();
    await write(source, "good/SKILL.md", skill("good"));
    await write(source, "broken/SKILL.md", "---\nname: broken\ndescription: [oops\n---\n");
    const broken = capture(root);
    expect(await main(["add", source], broken.ctx)).toBe(1);
    expect(broken.err()).toContain("broken does not load");
    await expect(fs.stat(path.join(root, ".skillshelf/skills/good"))).rejects.toThrow();

    const bad = await tempDir();
    await write(bad, "x/SKILL.md", '---\nname: "../../escape"\ndescription: Escapes.\n---\nBody.\n');
    expect(await main(["add", bad], capture(root).ctx)).toBe(1);
    await expect(fs.stat(path.join(root, "escape"))).rejects.toThrow();
  });
  it(`a skill folder over ${MAX_SKILL_FOLDER_FILES} files is refused, not copied in part`, async () => {
    const source = await tempDir();
    await write(source, "big/SKILL.md", skill("big"));
    await fs.mkdir(path.join(source, "big/assets"));
    await Promise.all(
      Array.from({ length: MAX_SKILL_FOLDER_FILES }, (_, i) =>
        fs.writeFile(path.join(source, "big/assets", `${i}.txt`), "x"),
      ),
    );
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["add", source], cap.ctx)).toBe(1);
    expect(cap.err()).toContain(`more than ${MAX_SKILL_FOLDER_FILES} files`);
    expect(await fs.readdir(path.join(root, ".skillshelf/skills"))).toEqual([]);
  });

  it("a lock file that is not valid is never overwritten (exit 1, nothing installed)", async () => {
    const { repo } = await repository();
    const root = await tempDir();
    const lockFile = await write(root, ".skillshelf/skills.lock.json", "{ not json");
    const cap = capture(root);
    expect(await main(["add", repo], cap.ctx)).toBe(1);
    expect(cap.err()).toContain("is not valid JSON");
    expect(await fs.readFile(lockFile, "utf8")).toBe("{ not json");
    expect(await fs.readdir(path.join(root, ".skillshelf"))).toEqual(["skills.lock.json"]);
  });
});

describe("skillshelf remove", () => {
  it("removes an installed skill and its lock entry; never one it did not install; a changed one only with --force", async () => {
    const { repo } = await repository();
    const root = await tempDir();
    expect(await main(["add", repo], capture(root).ctx)).toBe(0);
    await write(root, ".skillshelf/skills/mine/SKILL.md", skill("mine"));

    const mine = capture(root);
    expect(await main(["remove", "mine"], mine.ctx)).toBe(1);
    expect(mine.err()).toContain("not installed by 'skillshelf add'");
    await expect(fs.stat(path.join(root, ".skillshelf/skills/mine/SKILL.md"))).resolves.toBeTruthy();

    expect(await main(["remove", "notes"], capture(root).ctx)).toBe(0);
    await expect(fs.stat(path.join(root, ".skillshelf/skills/notes"))).rejects.toThrow();
    expect(Object.keys((await readLock(root)).skills)).toEqual(["deploy"]);

    await fs.appendFile(path.join(root, ".skillshelf/skills/deploy/scripts/run.sh"), "echo edited\n");
    const changed = capture(root);
    expect(await main(["remove", "deploy"], changed.ctx)).toBe(1);
    expect(changed.err()).toContain("scripts/run.sh");
    expect(await main(["remove", "deploy", "--force"], capture(root).ctx)).toBe(0);
    expect((await readLock(root)).skills).toEqual({});

    expect(await main(["remove", "../x"], capture(root).ctx)).toBe(2);
  });
});
