// Real sources for add/update tests: temp folders, git repositories, package tarballs (tests only).
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createGzip } from "node:zlib";
import tar from "tar-stream";

export async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-src-")));
}

export async function write(root: string, rel: string, text: string): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

export const skill = (name: string, body = "1. Do it.", version = "1.0.0") =>
  `---\nname: ${name}\ndescription: Does ${name} when asked. Not for anything else.\nversion: ${version}\n---\n\n${body}\n`;

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/** Commits everything in `repo`; returns the commit id. */
export function commitAll(repo: string, message: string): string {
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", message);
  return git(repo, "rev-parse", "HEAD").trim();
}

/** A bare copy of `repo`, as a server holds it; its file:// URL. */
export async function bareCopy(repo: string): Promise<{ bare: string; url: string }> {
  const bare = path.join(await tempDir(), "skills.git");
  git(path.dirname(bare), "clone", "-q", "--bare", repo, bare);
  return { bare, url: `file://${bare}` };
}

/** A package folder packed by npm itself (offline: a folder needs no registry). */
export async function packedPackage(version = "1.2.3", body = "1. From the package.", into?: string) {
  const pkg = await tempDir();
  await write(
    pkg,
    "package.json",
    JSON.stringify({
      name: "team-skills",
      version,
      files: ["skills", "lib"],
      scripts: { prepack: "touch PREPACK_RAN", postinstall: "touch POSTINSTALL_RAN" },
      skillshelf: { skills: "skills" },
    }),
  );
  await write(pkg, "skills/review/SKILL.md", skill("review", body, version));
  await write(pkg, "lib/fixtures/SKILL.md", skill("fixture"));
  const out = into ?? (await tempDir());
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", out, "--silent"], {
    cwd: pkg,
    env: { PATH: process.env.PATH, HOME: out, npm_config_cache: path.join(out, ".npm") },
  });
  return path.join(out, `team-skills-${version}.tgz`);
}

export interface TarEntry {
  name: string;
  type?: "file" | "directory" | "symlink" | "link";
  content?: string | Buffer;
  /** A file of this many zero bytes, streamed (for size limits). */
  zeros?: number;
  linkname?: string;
}

/** A gzipped tarball of exactly these entries, hostile ones included. */
export async function tarball(file: string, entries: readonly TarEntry[]): Promise<string> {
  const pack = tar.pack();
  const out = (await fs.open(file, "w")).createWriteStream();
  const done = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  pack.pipe(createGzip()).pipe(out);
  for (const entry of entries) {
    const type = entry.type ?? "file";
    if (entry.zeros !== undefined) {
      const stream = pack.entry({ name: entry.name, size: entry.zeros, type: "file" });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let left = entry.zeros; left > 0; left -= chunk.length) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        if (!stream.write(piece)) await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
      }
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      continue;
    }
    await new Promise<void>((resolve, reject) =>
      pack.entry(
        { name: entry.name, type, ...(entry.linkname && { linkname: entry.linkname }) },
        type === "file" ? (entry.content ?? "") : "",
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }
  pack.finalize();
  await done;
  return file;
}
