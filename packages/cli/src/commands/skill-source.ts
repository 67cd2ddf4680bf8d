/**
 * Where `skillshelf add` and `update` take skills from, as one folder to read:
 * - a local folder, as it is;
 * - a git repository: a local one, or an `https://`, `ssh://`, `git@host:path` or `file://`
 *   URL, with an optional `#<branch|tag|commit>`; one commit is fetched (git-source.ts);
 * - an npm package: `npm:<name>[@range]` from the registry, or a `.tgz` on disk (npm-source.ts);
 * and optionally a subfolder of it (`--path`). The folder chosen must stay inside what was
 * fetched: a subfolder that is a link out, or climbs out, is refused.
 */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fetchCommit, type GitTransport, isPlainRef } from "./git-source.js";
import { packFromRegistry, parseNpmSpec, type UnpackedPackage, unpackTarball } from "./npm-source.js";
import { ArchiveRefused } from "./tarball-extract.js";

export type SourceKind = "folder" | "git" | "npm";

export interface OpenedSource {
  /** The folder to look for skills in (the subfolder, when one was chosen). */
  dir: string;
  /** The folder the lock file's paths are relative to (the clone's or the package's root). */
  root: string;
  /** How the lock file names the source: an absolute path, a URL, or `npm:<name>@<range>`. */
  origin: string;
  kind: SourceKind;
  /** The branch, tag or commit asked for (git). */
  ref?: string;
  /** The commit installed from (git). */
  commit?: string;
  /** The package's version and the tarball's integrity (npm). */
  version?: string;
  integrity?: string;
  /** Removes what was fetched; safe to call always. */
  close(): Promise<void>;
}

/** Thrown for a source that cannot be used; `usage` marks bad input (exit 2) rather than a failure (exit 1). */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
  }
}

export interface OpenOptions {
  cwd: string;
  /** The environment npm runs with (registry, credentials). */
  env: NodeJS.ProcessEnv;
  /** A folder inside the source to look in. */
  subfolder?: string;
}

export async function openSource(spec: string, options: OpenOptions): Promise<OpenedSource> {
  if (spec.startsWith("npm:")) return openRegistryPackage(spec, options);
  const remote = remoteGit(spec);
  if (remote) return openGit(remote.url, remote.ref, remote.transport, remote.url, options);

  const [local, ref] = splitRef(spec, options.cwd);
  const dir = path.resolve(options.cwd, local);
  const info = await fs.stat(dir).catch(() => undefined);
  if (!info) throw new SourceError(`${spec} does not exist`, true);
  if (info.isFile() && /\.(?:tgz|tar\.gz|tar)$/iu.test(dir)) {
    return openPackage(options, (scratch) => unpackTarball(dir, scratch), dir);
  }
  if (!info.isDirectory()) throw new SourceError(`${spec} is not a folder, a git repository or a .tgz`, true);
  const exists = (rel: string) =>
    fs.stat(path.join(dir, rel)).then(
      () => true,
      () => false,
    );
  // A working copy, or a bare repository (a server's `skills.git`: HEAD and objects/, no .git).
  const isRepository = (await exists(".git")) || ((await exists("HEAD")) && (await exists("objects")));
  if (!isRepository) {
    if (ref !== undefined) throw new SourceError(`${local} is not a git repository; #${ref} needs one`, true);
    return {
      dir: await within(dir, options.subfolder),
      root: await fs.realpath(dir),
      origin: dir,
      kind: "folder",
      close: async () => {},
    };
  }
  // file:// and not the bare path: git ignores --depth for a plain local path.
  return openGit(pathToFileURL(dir).href, ref, "file", dir, options);
}

/** A git URL skillshelf fetches from, or undefined for anything else; an unsupported transport is bad usage. */
function remoteGit(spec: string): { url: string; ref?: string; transport: GitTransport } | undefined {
  const scpLike = /^[\w.-]+@[\w.-]+:(?!\/\/)/u.test(spec);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//iu.exec(spec)?.[1]?.toLowerCase();
  if (!scpLike && scheme === undefined) {
    if (spec.includes("::"))
      throw new SourceError(`${spec}: git's transport helpers (::) are not allowed`, true);
    return undefined;
  }
  const hash = spec.lastIndexOf("#");
  // npm's spelling (package.json "repository"): git+https://…, git+ssh://…
  const url = (hash === -1 ? spec : spec.slice(0, hash)).replace(/^git\+(?=(?:https|ssh|file):\/\/)/iu, "");
  const ref = hash === -1 ? undefined : spec.slice(hash + 1);
  const bare = scheme?.replace(/^git\+/u, "");
  const transport: GitTransport | undefined = scpLike
    ? "ssh"
    : bare === "https" || bare === "ssh" || bare === "file"
      ? bare
      : undefined;
  if (!transport) {
    throw new SourceError(
      `${spec}: only https://, ssh://, git@host:path and file:// git URLs can be added`,
      true,
    );
  }
  if (ref !== undefined && !isPlainRef(ref))
    throw new SourceError(`#${ref} is not a branch, tag or commit`, true);
  if (transport !== "file") {
    const host = scpLike ? url.slice(url.indexOf("@") + 1) : url.slice(url.indexOf("://") + 3);
    if (host.startsWith("-")) throw new SourceError(`${spec}: a host cannot start with "-"`, true);
    // The URL is written to the lock file, which is usually committed.
    if (!scpLike && new URL(url).password !== "") {
      throw new SourceError(
        `${spec}: a password in the URL would be written to the lock file; use git's credential helper`,
        true,
      );
    }
  }
  return { url, ...(ref !== undefined && { ref }), transport };
}

/** A local `path#ref`: the `#ref` only when the path with it does not exist. */
function splitRef(spec: string, cwd: string): [string, string | undefined] {
  const hash = spec.lastIndexOf("#");
  if (hash <= 0) return [spec, undefined];
  const whole = path.resolve(cwd, spec);
  // Checked synchronously once: a folder named "a#b" is taken as it is.
  if (existsSync(whole)) return [spec, undefined];
  const ref = spec.slice(hash + 1);
  if (!isPlainRef(ref)) throw new SourceError(`#${ref} is not a branch, tag or commit`, true);
  return [spec.slice(0, hash), ref];
}

async function openGit(
  url: string,
  ref: string | undefined,
  transport: GitTransport,
  origin: string,
  options: OpenOptions,
): Promise<OpenedSource> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-add-"));
  const close = () => fs.rm(scratch, { recursive: true, force: true });
  const clone = path.join(scratch, "repo");
  let commit: string;
  try {
    commit = await fetchCommit(url, ref, transport, clone);
  } catch (error) {
    await close();
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new SourceError(
      `git could not fetch ${origin}${ref ? `#${ref}` : ""}: ${stderr || (error as Error).message}`,
      false,
    );
  }
  try {
    const dir = await within(clone, options.subfolder);
    return {
      dir,
      root: await fs.realpath(clone),
      origin,
      kind: "git",
      ...(ref !== undefined && { ref }),
      commit,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openRegistryPackage(spec: string, options: OpenOptions): Promise<OpenedSource> {
  const parsed = parseNpmSpec(spec);
  if (typeof parsed === "string") throw new SourceError(`${spec}: ${parsed}`, true);
  return openPackage(
    options,
    (scratch) => packFromRegistry(parsed, scratch, options.env),
    `npm:${parsed.name}@${parsed.range}`,
  );
}

async function openPackage(
  options: OpenOptions,
  unpack: (scratch: string) => Promise<UnpackedPackage>,
  origin: string,
): Promise<OpenedSource> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-add-"));
  const close = () => fs.rm(scratch, { recursive: true, force: true });
  try {
    let unpacked: UnpackedPackage;
    try {
      unpacked = await unpack(scratch);
    } catch (error) {
      if (error instanceof ArchiveRefused) {
        throw new SourceError(`${origin} was refused: ${error.message}; nothing was installed`, false);
      }
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new SourceError(`could not fetch ${origin}: ${stderr || (error as Error).message}`, false);
    }
    // The package's own pointer to its skills, unless a subfolder was asked for.
    const dir = await within(unpacked.dir, options.subfolder ?? unpacked.skillsFolder);
    return {
      dir,
      root: await fs.realpath(unpacked.dir),
      origin,
      kind: "npm",
      ...(unpacked.version && { version: unpacked.version }),
      integrity: unpacked.integrity,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `root`'s `subfolder`, checked to be a real folder inside it (not a link out, not `..`). */
async function within(root: string, subfolder: string | undefined): Promise<string> {
  if (subfolder === undefined || subfolder === "" || subfolder === ".") return root;
  const real = await fs.realpath(root);
  const dir = path.resolve(real, subfolder);
  const resolved = await fs.realpath(dir).catch(() => undefined);
  if (resolved === undefined || !(await fs.stat(resolved)).isDirectory()) {
    throw new SourceError(`the source has no folder ${subfolder}`, false);
  }
  if (!resolved.startsWith(`${real}${path.sep}`) && resolved !== real) {
    throw new SourceError(`${subfolder} is outside the source; nothing was installed`, false);
  }
  return resolved;
}
