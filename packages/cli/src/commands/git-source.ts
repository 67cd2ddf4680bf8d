/**
 * Fetching one commit of a git repository through the machine's `git`, into a temporary
 * folder, so that only committed content is installed and the commit is on record.
 *
 * git runs with the user's and the system's configuration ignored (no hook, filter or
 * `insteadOf` applies) and only the transport the source names allowed (a local folder:
 * `file` only), so a source can neither name a transport that runs a command (`ext::`) nor
 * pull in a submodule from elsewhere.
 */
import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 120_000;

export type GitTransport = "file" | "https" | "ssh";

/** A branch, tag or commit: a plain ref name, never an option or a refspec. */
export function isPlainRef(ref: string): boolean {
  return /^[\w./-]+$/u.test(ref) && !ref.startsWith("-") && !ref.includes("..");
}

/** Fetches `ref` (default the remote's HEAD) of `url` into `into` (a new folder); returns the commit. */
export async function fetchCommit(
  url: string,
  ref: string | undefined,
  transport: GitTransport,
  into: string,
): Promise<string> {
  const git = (args: string[]) =>
    run("git", args, {
      timeout: GIT_TIMEOUT_MS,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: os.tmpdir(),
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: os.devNull,
        GIT_ALLOW_PROTOCOL: transport,
        GIT_TERMINAL_PROMPT: "0",
        // ssh finds the user's keys from the password database, and an agent through this.
        ...(process.env.SSH_AUTH_SOCK && { SSH_AUTH_SOCK: process.env.SSH_AUTH_SOCK }),
      },
    });
  await git(["init", "--quiet", into]);
  // fetch, not clone --branch: a commit id works as well as a branch or a tag.
  await git([
    "-C",
    into,
    "fetch",
    "--quiet",
    "--depth",
    "1",
    "--no-tags",
    "--no-recurse-submodules",
    "--",
    url,
    ref ?? "HEAD",
  ]);
  await git(["-C", into, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", "FETCH_HEAD"]);
  const { stdout } = await git(["-C", into, "rev-parse", "HEAD"]);
  return stdout.trim();
}
