import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { createContext } from "../context.js";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import {
  bareCopy,
  commitAll,
  git,
  packedPackage,
  skill,
  tarball,
  tempDir,
  write,
} from "../test-utils/skill-sources.js";
import type { SkillsLock } from "./skills-lock.js";
import { MAX_UNPACKED_BYTES } from "./tarball-extract.js";

const readLock = async (root: string) =>
  JSON.parse(await fs.readFile(path.join(root, ".skillshelf/skills.lock.json"), "utf8")) as SkillsLock;
const installed = (root: string, rel: string) =>
  fs.readFile(path.join(root, ".skillshelf/skills", rel), "utf8");

/** A repository whose first commit is tagged v1 and whose second changes deploy. */
async function taggedRepository() {
  const repo = await tempDir();
  git(repo, "init", "-q", "-b", "main");
  await write(repo, "skills/deploy/SKILL.md", skill("deploy", "1. Version one."));
  await write(repo, "skills/notes/SKILL.md", skill("notes"));
  await write(repo, "other/SKILL.md", skill("other"));
  const first = commitAll(repo, "one");
  git(repo, "tag", "v1");
  await write(repo, "skills/deploy/SKILL.md", skill("deploy", "1. Version two.", "2.0.0"));
  const second = commitAll(repo, "two");
  return { repo, first, second, ...(await bareCopy(repo)) };
}

describe("skillshelf add from a git URL", () => {
  it("fetches the default branch of a file:// URL (a bare repository); --path picks a folder", async () => {
    const { url, second } = await taggedRepository();
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["add", url, "--path", "skills"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain(`at ${second.slice(0, 12)}`);
    expect((await fs.readdir(path.join(root, ".skillshelf/skills"))).sort()).toEqual(["deploy", "notes"]);
    expect(await installed(root, "deploy/SKILL.md")).toContain("Version two");
    expect((await readLock(root)).skills.deploy).toMatchObject({
      source: url,
      kind: "git",
      commit: second,
      path: "skills/deploy",
    });
  });

  it("a bare repository's path (no file://) is fetched as git too", async () => {
    const { bare, second } = await taggedRepository();
    const root = await tempDir();
    expect(await main(["add", `${bare}#main`, "--path", "skills/notes"], capture(root).ctx)).toBe(0);
    expect((await readLock(root)).skills.notes).toMatchObject({ source: bare, kind: "git", commit: second });
  });

  it("npm's git+ spelling of a URL is the same URL", async () => {
    const { url, second } = await taggedRepository();
    const root = await tempDir();
    expect(await main(["add", `git+${url}#main`, "--path", "skills/notes"], capture(root).ctx)).toBe(0);
    expect((await readLock(root)).skills.notes).toMatchObject({ source: url, ref: "main", commit: second });
  });

  it("#tag and #commit select what is fetched, and the lock records the ref and the commit", async () => {
    const { url, first } = await taggedRepository();
    const root = await tempDir();
    expect(await main(["add", `${url}#v1`, "--path", "skills/deploy"], capture(root).ctx)).toBe(0);
    expect(await installed(root, "deploy/SKILL.md")).toContain("Version one");
    expect((await readLock(root)).skills.deploy).toMatchObject({
      ref: "v1",
      commit: first,
      path: "skills/deploy",
    });

    const other = await tempDir();
    expect(await main(["add", `${url}#${first}`, "--path", "other"], capture(other).ctx)).toBe(0);
    expect((await readLock(other)).skills.other).toMatchObject({ ref: first, commit: first, path: "other" });
  });

  it("a local repository path takes #ref too; a ref that is an option or a refspec is bad usage", async () => {
    const { repo, first } = await taggedRepository();
    const root = await tempDir();
    expect(await main(["add", `${repo}#v1`, "--path", "skills/deploy"], capture(root).ctx)).toBe(0);
    expect((await readLock(root)).skills.deploy).toMatchObject({ source: repo, commit: first });
    for (const ref of ["--upload-pack=touch /tmp/x", "+refs/heads/*:refs/x", "a..b"]) {
      expect(await main(["add", `${repo}#${ref}`], capture(root).ctx), ref).toBe(2);
    }
  });

  it("a --path that is a committed link out of the repository, or climbs out, is refused", async () => {
    const repo = await tempDir();
    git(repo, "init", "-q");
    const outside = await tempDir();
    await write(outside, "stolen/SKILL.md", skill("stolen"));
    await write(repo, "skills/ok/SKILL.md", skill("ok"));
    await fs.symlink(outside, path.join(repo, "out"));
    commitAll(repo, "link");
    const { url } = await bareCopy(repo);
    const root = await tempDir();
    for (const folder of ["out", "out/stolen", "../"]) {
      const cap = capture(root);
      expect(await main(["add", url, "--path", folder], cap.ctx), folder).toBe(1);
      expect(cap.err()).toMatch(/outside the source|no folder/);
    }
    await expect(fs.stat(path.join(root, ".skillshelf/skills/stolen"))).rejects.toThrow();
  });

  it("a ref that does not exist fails (exit 1) and leaves no temporary clone", async () => {
    const { url } = await taggedRepository();
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["add", `${url}#no-such-tag`], cap.ctx)).toBe(1);
    expect(cap.err()).toContain("git could not fetch");
  });
});

const integrityOf = async (file: string) =>
  `sha512-${createHash("sha512")
    .update(await fs.readFile(file))
    .digest("base64")}`;

describe("skillshelf add from an npm package", () => {
  it("a .tgz: the skills folder its package.json names, with version and integrity on record; no script runs", async () => {
    const tgz = await packedPackage();
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["add", tgz, "--json"], cap.ctx)).toBe(0);
    const report = JSON.parse(cap.out());
    expect(report).toMatchObject({ version: "1.2.3", integrity: await integrityOf(tgz) });
    // lib/fixtures is outside the declared folder: not installed.
    expect(await fs.readdir(path.join(root, ".skillshelf/skills"))).toEqual(["review"]);
    expect((await readLock(root)).skills.review).toMatchObject({
      source: tgz,
      kind: "npm",
      version: "1.2.3",
      integrity: await integrityOf(tgz),
      path: "skills/review",
    });
    const everything = await fs.readdir(root, { recursive: true });
    expect(everything.filter((f) => f.includes("_RAN"))).toEqual([]);
  });

  it("--path overrides the package's folder", async () => {
    const tgz = await packedPackage();
    const root = await tempDir();
    expect(await main(["add", tgz, "--path", "lib"], capture(root).ctx)).toBe(0);
    expect(await fs.readdir(path.join(root, ".skillshelf/skills"))).toEqual(["fixture"]);
  });

  const hostile: [string, Parameters<typeof tarball>[1], RegExp][] = [
    [
      "a path climbing out",
      [{ name: "package/../../escape/SKILL.md", content: skill("escape") }],
      /points outside/,
    ],
    [
      "an absolute path",
      [{ name: "/tmp/skillshelf-absolute/SKILL.md", content: skill("abs") }],
      /points outside/,
    ],
    [
      "a symbolic link out",
      [
        { name: "package/skills/x/SKILL.md", content: skill("x") },
        { name: "package/skills/x/key", type: "symlink", linkname: "/etc/passwd" },
      ],
      /is a symlink/,
    ],
    [
      "a hard link",
      [
        { name: "package/skills/x/SKILL.md", content: skill("x") },
        { name: "package/skills/x/key", type: "link", linkname: "/etc/passwd" },
      ],
      /is a link/,
    ],
    [
      "a file that inflates past the limit",
      [
        { name: "package/skills/x/SKILL.md", content: skill("x") },
        { name: "package/skills/x/bomb.bin", zeros: MAX_UNPACKED_BYTES + 1024 * 1024 },
      ],
      /unpacks to more than/,
    ],
  ];
  for (const [what, entries, message] of hostile) {
    it(`a tarball with ${what} is refused whole: nothing installed, nothing written outside`, async () => {
      const tgz = await tarball(path.join(await tempDir(), "evil.tgz"), entries);
      const root = await tempDir();
      const cap = capture(root);
      expect(await main(["add", tgz], cap.ctx)).toBe(1);
      expect(cap.err()).toMatch(message);
      expect(cap.err()).toContain("nothing was installed");
      await expect(fs.stat(path.join(root, ".skillshelf/skills"))).rejects.toThrow();
      await expect(fs.stat(path.join(path.dirname(tgz), "..", "escape"))).rejects.toThrow();
      await expect(fs.stat("/tmp/skillshelf-absolute")).rejects.toThrow();
    });
  }
});

/** A registry on 127.0.0.1 serving one package's versions: what `npm pack` talks to. */
async function localRegistry(name: string, tarballs: Record<string, string>) {
  const integrity: Record<string, string> = {};
  for (const [version, file] of Object.entries(tarballs)) integrity[version] = await integrityOf(file);
  const server = http.createServer(async (request, response) => {
    const url = decodeURIComponent(request.url ?? "");
    const tarball = /\/-\/(\d+\.\d+\.\d+)\.tgz$/u.exec(url)?.[1];
    if (tarball && tarballs[tarball]) {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.end(await fs.readFile(tarballs[tarball]!));
      return;
    }
    if (url === `/${name}`) {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const versions = Object.fromEntries(
        Object.keys(tarballs).map((v) => [
          v,
          { name, version: v, dist: { tarball: `${base}/${name}/-/${v}.tgz`, integrity: integrity[v] } },
        ]),
      );
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ name, "dist-tags": { latest: Object.keys(tarballs).at(-1) }, versions }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    registry: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("skillshelf add npm:<name>@<range>", () => {
  it("packs the version the range picks from the registry (no network: a local one), with its integrity", async () => {
    const out = await tempDir();
    const old = await packedPackage("1.2.3", "1. Old.", out);
    const newer = await packedPackage("1.4.0", "1. Newer.", out);
    const server = await localRegistry("team-skills", { "1.2.3": old, "1.4.0": newer });
    try {
      const root = await tempDir();
      let err = "";
      const ctx = createContext({
        cwd: root,
        env: { HOME: root, npm_config_registry: server.registry },
        out: () => undefined,
        err: (t) => {
          err += t;
        },
        color: pc.createColors(false),
      });
      expect(await main(["add", "npm:team-skills@~1.2.0"], ctx), err).toBe(0);
      expect((await readLock(root)).skills.review).toMatchObject({
        source: "npm:team-skills@~1.2.0",
        kind: "npm",
        version: "1.2.3",
        integrity: await integrityOf(old),
        path: "skills/review",
      });
      expect(await installed(root, "review/SKILL.md")).toContain("1. Old.");
      // update follows the recorded range: 1.4.0 is outside ~1.2.0, so nothing changes.
      expect(await main(["update"], ctx), err).toBe(0);
      expect((await readLock(root)).skills.review!.version).toBe("1.2.3");
    } finally {
      await server.close();
    }
  });
});

describe("what add leaves behind", () => {
  it("no temporary clone or unpacked package, whether it installs or is refused", async () => {
    const scratch = await tempDir();
    const { url } = await taggedRepository();
    const evil = await tarball(path.join(await tempDir(), "evil.tgz"), [
      { name: "package/x/SKILL.md", content: skill("x") },
      { name: "package/x/link", type: "symlink", linkname: "/etc/passwd" },
    ]);
    const tgz = await packedPackage();
    const root = await tempDir();
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      expect(await main(["add", url, "--path", "skills"], capture(root).ctx)).toBe(0);
      expect(await main(["add", `${url}#nope`], capture(root).ctx)).toBe(1);
      expect(await main(["add", evil], capture(root).ctx)).toBe(1);
      expect(await main(["add", tgz, "--path", "missing"], capture(root).ctx)).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(await fs.readdir(scratch)).toEqual([]);
  });

  it("a project skill it installs is withheld by a shelf with the trust gate until trusted", async () => {
    const { url } = await taggedRepository();
    const root = await tempDir();
    expect(await main(["add", url, "--path", "skills/notes"], capture(root).ctx)).toBe(0);
    const shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      trust: { file: path.join(await tempDir(), "trust.json") },
    });
    try {
      expect(shelf.trustOf("notes")?.status).toBe("untrusted");
      expect(shelf.session({ message: "notes", tools: [] }).plan().system).not.toContain("notes:");
    } finally {
      await shelf.close();
    }
  });
});
