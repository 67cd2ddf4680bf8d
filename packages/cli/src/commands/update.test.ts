import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import {
  bareCopy,
  commitAll,
  git,
  packedPackage,
  skill,
  tempDir,
  write,
} from "../test-utils/skill-sources.js";
import type { SkillsLock } from "./skills-lock.js";

const readLock = async (root: string) =>
  JSON.parse(await fs.readFile(path.join(root, ".skillshelf/skills.lock.json"), "utf8")) as SkillsLock;
const skillFile = (root: string, name: string) => path.join(root, ".skillshelf/skills", name, "SKILL.md");

/** A bare repository with deploy and notes, installed into a fresh project. */
async function installed() {
  const repo = await tempDir();
  git(repo, "init", "-q", "-b", "main");
  await write(repo, "skills/deploy/SKILL.md", skill("deploy", "1. Version one."));
  await write(repo, "skills/notes/SKILL.md", skill("notes"));
  const first = commitAll(repo, "one");
  const { bare, url } = await bareCopy(repo);
  const root = await tempDir();
  expect(await main(["add", url, "--path", "skills"], capture(root).ctx)).toBe(0);
  git(repo, "remote", "add", "origin", bare);
  /** A new commit upstream: deploy's SKILL.md and a new script. */
  const publish = async () => {
    await write(repo, "skills/deploy/SKILL.md", skill("deploy", "1. Version two.", "2.0.0"));
    await write(repo, "skills/deploy/scripts/run.sh", "echo two\n");
    const second = commitAll(repo, "two");
    git(repo, "push", "-q", "origin", "main");
    return second;
  };
  return { root, url, first, publish };
}

describe("skillshelf update", () => {
  it("nothing new upstream: up to date, nothing written", async () => {
    const { root } = await installed();
    const before = await fs.readFile(path.join(root, ".skillshelf/skills.lock.json"), "utf8");
    const cap = capture(root);
    expect(await main(["update"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("everything is up to date");
    expect(await fs.readFile(path.join(root, ".skillshelf/skills.lock.json"), "utf8")).toBe(before);
  });

  it("shows what changes (--dry-run changes nothing), installs it through history, and rollback undoes it", async () => {
    const { root, first, publish } = await installed();
    const second = await publish();

    const dry = capture(root);
    expect(await main(["update", "--dry-run"], dry.ctx)).toBe(0);
    expect(dry.out()).toContain(`deploy  ${first.slice(0, 12)} → ${second.slice(0, 12)}`);
    expect(dry.out()).toContain("changed: SKILL.md");
    expect(dry.out()).toContain("added: scripts/run.sh");
    expect(dry.out()).toContain("+1. Version two.");
    expect(dry.out()).toContain("notes  up to date");
    expect(await fs.readFile(skillFile(root, "deploy"), "utf8")).toContain("Version one");

    const cap = capture(root);
    expect(await main(["update", "deploy"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("1 skill updated");
    expect(await fs.readFile(skillFile(root, "deploy"), "utf8")).toContain("Version two");
    expect(await fs.readFile(path.join(root, ".skillshelf/skills/deploy/scripts/run.sh"), "utf8")).toBe(
      "echo two\n",
    );
    const lock = await readLock(root);
    expect(lock.skills.deploy).toMatchObject({ commit: second, path: "skills/deploy" });
    expect(Object.keys(lock.skills.deploy!.files).sort()).toEqual(["SKILL.md", "scripts/run.sh"]);
    expect(lock.skills.notes!.commit).toBe(first);

    expect(await main(["rollback", "deploy", "~1"], capture(root).ctx)).toBe(0);
    expect(await fs.readFile(skillFile(root, "deploy"), "utf8")).toContain("Version one");
  });

  it("a hand edit is not overwritten without --force (exit 1) and is kept in history either way", async () => {
    const { root, publish } = await installed();
    await publish();
    const edited = `${await fs.readFile(skillFile(root, "deploy"), "utf8")}\n2. My own rule.\n`;
    await fs.writeFile(skillFile(root, "deploy"), edited);

    // A dry run says it would refuse, and writes nothing (not even history).
    const dry = capture(root);
    expect(await main(["update", "--dry-run"], dry.ctx)).toBe(1);
    const historyBefore = capture(root);
    await main(["history", "deploy", "--json"], historyBefore.ctx);
    expect(
      JSON.parse(historyBefore.out()).versions.filter((v: { recorded: boolean }) => v.recorded),
    ).toHaveLength(1);

    const refused = capture(root);
    expect(await main(["update"], refused.ctx)).toBe(1);
    expect(refused.err()).toContain("edited here since it was installed: SKILL.md");
    expect(refused.err()).toContain("nothing was updated");
    expect(await fs.readFile(skillFile(root, "deploy"), "utf8")).toBe(edited);
    const lock = await readLock(root);
    expect(lock.skills.deploy!.files["scripts/run.sh"]).toBeUndefined();

    expect(await main(["update", "--force"], capture(root).ctx)).toBe(0);
    expect(await fs.readFile(skillFile(root, "deploy"), "utf8")).toContain("Version two");
    // The hand edit is a kept version: it can be read back and restored.
    const history = capture(root);
    expect(await main(["history", "deploy", "--json"], history.ctx)).toBe(0);
    const versions = JSON.parse(history.out()).versions as { id: string }[];
    const texts = await Promise.all(
      versions.map(async (v) => {
        const shown = capture(root);
        await main(["diff", "deploy", v.id, "current"], shown.ctx);
        return shown.out();
      }),
    );
    expect(texts.some((t) => t.includes("-2. My own rule."))).toBe(true);
  });

  it("a name not in the lock file, or a source that no longer has the skill, updates nothing", async () => {
    const { root } = await installed();
    await write(root, ".skillshelf/skills/mine/SKILL.md", skill("mine"));
    const mine = capture(root);
    expect(await main(["update", "mine"], mine.ctx)).toBe(1);
    expect(mine.err()).toContain("not installed by 'skillshelf add'");
    expect(await main(["update", "../x"], capture(root).ctx)).toBe(2);

    const lock = await readLock(root);
    lock.skills.notes!.path = "skills/gone";
    await fs.writeFile(path.join(root, ".skillshelf/skills.lock.json"), JSON.stringify(lock));
    const gone = capture(root);
    expect(await main(["update"], gone.ctx)).toBe(1);
    expect(gone.err()).toContain("no longer has skills/gone");
    const leftovers = (await fs.readdir(path.join(root, ".skillshelf/skills"))).filter((n) =>
      n.startsWith("."),
    );
    expect(leftovers).toEqual([]);
  });

  it("a lock entry whose path climbs out of the source is refused", async () => {
    const { root } = await installed();
    const lock = await readLock(root);
    lock.skills.notes!.path = "../../../etc";
    await fs.writeFile(path.join(root, ".skillshelf/skills.lock.json"), JSON.stringify(lock));
    const cap = capture(root);
    expect(await main(["update", "notes"], cap.ctx)).toBe(1);
    expect(cap.err()).toContain("outside the source");
  });
});

describe("skillshelf update from an npm tarball", () => {
  it("reads the tarball at the recorded path again: a new version's files and integrity", async () => {
    const out = await tempDir();
    const first = await packedPackage("1.2.3", "1. From the package.", out);
    const tgz = path.join(out, "team-skills.tgz");
    await fs.rename(first, tgz);
    const root = await tempDir();
    expect(await main(["add", tgz], capture(root).ctx)).toBe(0);
    const before = (await readLock(root)).skills.review!;

    await fs.rename(await packedPackage("1.3.0", "1. Newer rules.", out), tgz);
    const cap = capture(root);
    expect(await main(["update"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("review  1.2.3 → 1.3.0");
    const after = (await readLock(root)).skills.review!;
    expect(after).toMatchObject({ version: "1.3.0", path: "skills/review" });
    expect(after.integrity).not.toBe(before.integrity);
    expect(await fs.readFile(skillFile(root, "review"), "utf8")).toContain("Newer rules");
  });
});

describe("skillshelf update and a hostile lock file", () => {
  it("a lock entry named like a path is refused: nothing is written outside the skills folder", async () => {
    const repo = await tempDir();
    git(repo, "init", "-q");
    await write(repo, "x/SKILL.md", '---\nname: "../../escaped"\ndescription: Escapes.\n---\nBody.\n');
    commitAll(repo, "escape");
    const root = await tempDir();
    await write(
      root,
      ".skillshelf/skills.lock.json",
      JSON.stringify({
        lockfileVersion: 1,
        skills: {
          "../../escaped": {
            source: repo,
            kind: "git",
            path: "x",
            installedAt: "2026-01-01T00:00:00Z",
            files: {},
          },
        },
      }),
    );
    const cap = capture(root);
    expect(await main(["update"], cap.ctx)).toBe(1);
    expect(cap.err()).toContain("not a skill name");
    await expect(fs.stat(path.join(root, "escaped"))).rejects.toThrow();
  });
});

describe("skillshelf update and a hostile upstream", () => {
  it("a new commit that turns the skill's parent folder into a link out of the repository is refused", async () => {
    const repo = await tempDir();
    git(repo, "init", "-q", "-b", "main");
    await write(repo, "skills/notes/SKILL.md", skill("notes"));
    commitAll(repo, "one");
    const { bare, url } = await bareCopy(repo);
    const root = await tempDir();
    expect(await main(["add", url], capture(root).ctx)).toBe(0);
    // Upstream: skills/ becomes a link to a folder elsewhere on this machine holding "notes".
    const elsewhere = await tempDir();
    await write(elsewhere, "notes/SKILL.md", skill("notes", "1. Copied from outside the repository."));
    await write(elsewhere, "notes/private.txt", "not for the project\n");
    await fs.rm(path.join(repo, "skills"), { recursive: true });
    await fs.symlink(elsewhere, path.join(repo, "skills"));
    commitAll(repo, "link");
    git(repo, "push", "-q", bare, "main");

    const cap = capture(root);
    expect(await main(["update"], cap.ctx)).toBe(1);
    expect(cap.err()).toContain("outside the source");
    await expect(fs.stat(path.join(root, ".skillshelf/skills/notes/private.txt"))).rejects.toThrow();
  });
});
