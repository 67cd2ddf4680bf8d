import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The demo package's root, found by walking up to its package.json, so the template is found
 * the same way from src/ (tests) and from dist/ (the built CLI), however deep the module is.
 */
export function packageRoot(from = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "@skillshelf/demo"
    ) {
      return dir;
    }
  }
  throw new Error("skillshelf demo: cannot find the package root (package.json of @skillshelf/demo)");
}

/** The template the demo copies: a tiny project with its own project-scope skills. */
export const WORKSPACE_TEMPLATE = join(packageRoot(), "workspace");

/** A scripted history, so the release-notes skill has something real to read. */
const COMMITS = [
  "release: v1.0.0",
  "feat: search notes by tag",
  "fix: trim note titles before saving",
  "feat!: note dates are ISO strings (BREAKING)",
  "chore: meeting notes",
];

export interface Sandbox {
  dir: string;
  /** Whether `git` was available (the git_log tool falls back to a recorded log without it). */
  git: boolean;
  dispose(): Promise<void>;
}

/**
 * Copies the template into a fresh temp folder and gives it a git history. Every tool the
 * demo's agents have is confined to this folder: the user's own files are never touched.
 */
export async function createSandbox(template = WORKSPACE_TEMPLATE): Promise<Sandbox> {
  // realpath: tools compare resolved paths against it (macOS's /var → /private/var).
  const dir = await realpath(await mkdtemp(join(tmpdir(), "skillshelf-demo-")));
  await cp(template, dir, { recursive: true });
  const git = initGit(dir);
  return { dir, git, dispose: () => rm(dir, { recursive: true, force: true }) };
}

function initGit(dir: string): boolean {
  const run = (...args: string[]) =>
    execFileSync("git", ["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", ...args], {
      cwd: dir,
      stdio: "ignore",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Demo",
        GIT_AUTHOR_EMAIL: "demo@example.invalid",
        GIT_COMMITTER_NAME: "Demo",
        GIT_COMMITTER_EMAIL: "demo@example.invalid",
        GIT_AUTHOR_DATE: "2026-11-20T10:00:00Z",
        GIT_COMMITTER_DATE: "2026-11-20T10:00:00Z",
      },
    });
  try {
    run("init", "-q", "-b", "main");
    run("add", "-A");
    for (const [i, message] of COMMITS.entries()) {
      run(
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        message,
        `--date=2026-11-${String(10 + i).padStart(2, "0")}T10:00:00Z`,
      );
    }
    return true;
  } catch {
    return false;
  }
}

/** The same history as text, for machines without git. */
export function recordedLog(): string {
  return [...COMMITS]
    .reverse()
    .map((message, i) => `${(0xabc100 + i).toString(16)} ${message}`)
    .join("\n");
}
