/**
 * Running a skill's `scripts/` entries, when the host opts in. Every run is asked of the
 * host's `approve` callback first; it runs without a shell, with a scrubbed environment, a
 * timeout and capped output, in the skill folder or a throwaway copy of it.
 *
 * This is not a sandbox: the script runs with the host process's user rights (files,
 * network, other processes). The limits here bound what it costs, not what it can do.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ScriptRunResult } from "../types.js";
import { confine, realFolder } from "./confine.js";

export const SCRIPTS_FOLDER = "scripts";
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;
export const DEFAULT_SCRIPT_OUTPUT = 16 * 1024;
/** What a script sees of the environment unless the host says otherwise: no tokens, no keys. */
export const DEFAULT_SCRIPT_ENV: readonly string[] = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];
const DEFAULT_INTERPRETERS: Readonly<Record<string, string>> = {
  ".py": "python3",
  ".sh": "sh",
  ".bash": "bash",
  ".js": process.execPath,
  ".mjs": process.execPath,
  ".cjs": process.execPath,
};
const MAX_ARGS = 32;
const MAX_ARG_LENGTH = 4_000;
/** A sandbox copy larger than this is refused (a skill folder is instructions, not a data set). */
const MAX_COPY_BYTES = 64 * 1024 * 1024;

/** What the host's approval callback is shown: everything that will run, and where. */
export interface ScriptRequest {
  skill: string;
  /** The script, relative to the skill folder (`scripts/…`). */
  script: string;
  args: string[];
  /** The program started (an interpreter, or the script itself) and its whole argument list. */
  command: string;
  argv: string[];
  /** "skill": in the skill's folder; "sandbox": in a temporary copy of it. */
  cwd: "skill" | "sandbox";
  /** The skill folder (its real path). */
  folder: string;
  /** Names of the environment variables the script gets. */
  env: string[];
  timeoutMs: number;
}

export interface ScriptOptions {
  /** Must be true: scripts never run unless the host turns them on. */
  run: boolean;
  /** Asked before every run; only `true` runs it. A throw counts as no. */
  approve: (request: ScriptRequest) => boolean | Promise<boolean>;
  /** Killed after this long (default 30 s); the whole process group on POSIX. */
  timeoutMs?: number;
  /** Bytes kept of each of stdout and stderr: the last ones (default 16 KiB). */
  maxOutput?: number;
  /** Where it runs: "sandbox" (default, a temporary copy of the skill folder) or "skill" (the folder itself). */
  cwd?: "skill" | "sandbox";
  /** Environment variable names passed through (default PATH, LANG, LC_ALL, LC_CTYPE, TZ). */
  env?: readonly string[];
  /** File extension → program that runs it (default .py python3, .sh sh, .bash bash, .js/.mjs/.cjs node). */
  interpreters?: Readonly<Record<string, string>>;
}

type Failure = Extract<ScriptRunResult, { status: "error" }>;

function failure(error_type: Failure["error_type"], message: string): Failure {
  return { status: "error", error_type, message };
}

/** The script's arguments, or what is wrong with them. */
export function readScriptArgs(value: unknown): string[] | string {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return '"args" must be a list of strings';
  if (value.length > MAX_ARGS) return `at most ${MAX_ARGS} arguments`;
  const args: string[] = [];
  for (const arg of value) {
    if (typeof arg !== "string" && typeof arg !== "number") return '"args" must be a list of strings';
    const text = String(arg);
    if (text.length > MAX_ARG_LENGTH || text.includes("\u0000"))
      return "an argument is too long or has a NUL";
    args.push(text);
  }
  return args;
}

/** The files under a skill's `scripts/` (relative paths), for the tool's description. */
export function listScripts(resources: readonly string[]): string[] {
  return resources.filter((r) => r.startsWith(`${SCRIPTS_FOLDER}/`));
}

/** The last `max` bytes of a stream, and how many were dropped before them. */
function tail(max: number) {
  let chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  return {
    push(chunk: Buffer) {
      chunks.push(chunk);
      kept += chunk.length;
      while (kept > max && chunks.length > 0) {
        const first = chunks[0]!;
        const over = kept - max;
        if (first.length <= over) {
          chunks.shift();
          kept -= first.length;
          dropped += first.length;
        } else {
          chunks[0] = first.subarray(over);
          kept -= over;
          dropped += over;
        }
      }
    },
    text: () => {
      const text = Buffer.concat(chunks).toString("utf8");
      chunks = [];
      return text;
    },
    dropped: () => dropped,
  };
}

function scrubbedEnv(names: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** A copy of the folder without links, hidden files or anything that is not a file or folder. */
async function sandboxCopy(folder: string): Promise<string> {
  const base = await fs.promises.mkdtemp(path.join(os.tmpdir(), "skillshelf-script-"));
  const target = path.join(base, path.basename(folder));
  let bytes = 0;
  await fs.promises.cp(folder, target, {
    recursive: true,
    filter: async (source) => {
      if (source !== folder && path.basename(source).startsWith(".")) return false;
      const stat = await fs.promises.lstat(source);
      if (stat.isFile()) {
        bytes += stat.size;
        if (bytes > MAX_COPY_BYTES) throw new Error("the skill folder is too large to copy");
        return true;
      }
      return stat.isDirectory();
    },
  });
  return target;
}

function killTree(pid: number | undefined, child: { kill(signal: NodeJS.Signals): boolean }) {
  try {
    if (pid !== undefined && process.platform !== "win32") process.kill(-pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** Run `script` of skill `skill` (folder `dir`) with `args`, if the host approves. Never rejects. */
export async function runSkillScript(
  skill: string,
  dir: string,
  script: unknown,
  rawArgs: unknown,
  options: ScriptOptions,
): Promise<ScriptRunResult> {
  const args = readScriptArgs(rawArgs);
  if (typeof args === "string") return failure("INVALID_ARGUMENTS", `Cannot run that script: ${args}.`);
  const found = confine(dir, script, SCRIPTS_FOLDER);
  if (!found.ok) {
    const error = found.error === "NOT_A_FILE" ? "NOT_FOUND" : found.error;
    return failure(error, `Cannot run that script of skill "${skill}": ${found.problem}.`);
  }
  const folder = realFolder(dir)!;
  const interpreters = options.interpreters ?? DEFAULT_INTERPRETERS;
  const interpreter = interpreters[path.extname(found.relative).toLowerCase()];
  const executable = (found.stat.mode & 0o111) !== 0;
  if (interpreter === undefined && !executable) {
    return failure(
      "NO_INTERPRETER",
      `"${found.relative}" has no known interpreter and is not executable; follow the skill's instructions without running it, or ask the user.`,
    );
  }
  const where = options.cwd ?? "sandbox";
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS);
  const envNames = [...(options.env ?? DEFAULT_SCRIPT_ENV)];
  // By its real place: a sandbox copy holds no links, so a link inside the folder is resolved here.
  const scriptIn = (root: string) => path.join(root, ...found.realRelative.split("/"));
  const argvFor = (root: string) => (interpreter === undefined ? [...args] : [scriptIn(root), ...args]);
  const request: ScriptRequest = {
    skill,
    script: found.relative,
    args,
    command: interpreter ?? scriptIn(folder),
    argv: argvFor(folder),
    cwd: where,
    folder,
    env: envNames.filter((n) => process.env[n] !== undefined),
    timeoutMs,
  };
  let approved = false;
  try {
    approved = (await options.approve(request)) === true;
  } catch {
    approved = false;
  }
  if (!approved) {
    return failure(
      "NOT_APPROVED",
      `The user did not approve running "${found.relative}". Do not try to run it another way; continue without it or ask the user.`,
    );
  }

  let root = folder;
  let cleanup: string | undefined;
  try {
    if (where === "sandbox") {
      root = await sandboxCopy(folder);
      cleanup = path.dirname(root);
    }
    // Loaded here, not at import: node:child_process costs a fresh process ≈ 3 ms, and most never run a script.
    const { spawn } = await import("node:child_process");
    return await new Promise<ScriptRunResult>((resolve) => {
      const stdout = tail(Math.max(0, options.maxOutput ?? DEFAULT_SCRIPT_OUTPUT));
      const stderr = tail(Math.max(0, options.maxOutput ?? DEFAULT_SCRIPT_OUTPUT));
      let timedOut = false;
      const child = spawn(interpreter ?? scriptIn(root), argvFor(root), {
        cwd: root,
        env: scrubbedEnv(envNames),
        shell: false,
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, so the timeout also stops what it started.
        detached: process.platform !== "win32",
        windowsHide: true,
      });
      const timer = setTimeout(() => {
        timedOut = true;
        killTree(child.pid, child);
      }, timeoutMs);
      child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.on("error", (error) => {
        clearTimeout(timer);
        resolve(failure("SPAWN_FAILED", `Could not start "${found.relative}": ${error.message}.`));
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        // Whatever it left running in its group goes with it.
        if (process.platform !== "win32" && child.pid !== undefined) {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            // the group is already gone
          }
        }
        const data = {
          skill,
          script: found.relative,
          args,
          exitCode: code,
          signal: signal ?? null,
          timedOut,
          stdout: stdout.text(),
          stderr: stderr.text(),
          stdoutDropped: stdout.dropped(),
          stderrDropped: stderr.dropped(),
        };
        const message = timedOut
          ? `"${found.relative}" was stopped after ${timeoutMs} ms (timeout). Tell the user; do not retry in a loop.`
          : code === 0
            ? `"${found.relative}" exited with code 0.`
            : `"${found.relative}" exited with ${code === null ? `signal ${signal}` : `code ${code}`}; see stderr.`;
        resolve({ status: "success", data, message });
      });
    });
  } catch (error) {
    return failure("SPAWN_FAILED", `Could not prepare "${found.relative}": ${(error as Error).message}.`);
  } finally {
    if (cleanup) await fs.promises.rm(cleanup, { recursive: true, force: true }).catch(() => undefined);
  }
}
