/**
 * Where `skillshelf add` takes skills from: a local folder as it is, or a local git
 * repository through the machine's `git`, cloned (`--depth 1`) into a temporary folder so
 * that only committed content is installed and the commit is on record.
 *
 * The clone runs with the user's and the system's git configuration ignored and only the
 * `file` transport allowed: a source can neither name a transport that runs a command
 * (`ext::`) nor pull in a submodule from elsewhere, and no configured hook runs.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 120_000;

export interface OpenedSource {
  /** The folder to read skills from. */
  dir: string;
  /** How the lock file names the source: the absolute path given. */
  origin: string;
  kind: "folder" | "git";
  /** The commit installed from (git sources). */
  commit?: string;
  /** Removes the temporary clone; safe to call always. */
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

export async function openSource(source: string, cwd: string): Promise<OpenedSource> {
  if (
    /^[a-z][a-z0-9+.-]*:\/\//iu.test(source) ||
    /^[^/\\]+@[^/\\]+:/u.test(source) ||
    source.includes("::")
  ) {
    throw new SourceError(
      `${source}: only local folders and local git repositories can be added; clone it first and add the folder`,
      true,
    );
  }
  const dir = path.resolve(cwd, source);
  const info = await fs.stat(dir).catch(() => undefined);
  if (!info) throw new SourceError(`${source} does not exist`, true);
  if (!info.isDirectory()) throw new SourceError(`${source} is not a folder`, true);
  const isRepository = await fs.stat(path.join(dir, ".git")).then(
    () => true,
    () => false,
  );
  if (!isRepository) return { dir, origin: dir, kind: "folder", close: async () => {} };

  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-add-"));
  const close = () => fs.rm(scratch, { recursive: true, force: true });
  const clone = path.join(scratch, "repo");
  try {
    // file:// and not the bare path: git ignores --depth for a plain local path.
    await git([
      "clone",
      "--depth",
      "1",
      "--quiet",
      "--no-recurse-submodules",
      "--",
      pathToFileURL(dir).href,
      clone,
    ]);
    const { stdout } = await git(["-C", clone, "rev-parse", "HEAD"]);
    return { dir: clone, origin: dir, kind: "git", commit: stdout.trim(), close };
  } catch (error) {
    await close();
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new SourceError(`git could not clone ${source}: ${stderr || (error as Error).message}`, false);
  }
}

function git(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run("git", args, {
    timeout: GIT_TIMEOUT_MS,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: os.tmpdir(),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: os.devNull,
      GIT_ALLOW_PROTOCOL: "file",
      GIT_TERMINAL_PROMPT: "0",
    },
  });
}
