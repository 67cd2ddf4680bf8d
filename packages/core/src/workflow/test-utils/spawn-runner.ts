/**
 * Starts run-child in its own node process. As the history fault tests do, the TypeScript
 * it imports is stripped to JavaScript once per test process (node's `stripTypeScriptTypes`),
 * so a start costs a fraction of an on-the-fly transform and hundreds of kills stay cheap.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { stripTypeScriptTypes } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const sourceRoot = fileURLToPath(new URL("../../", import.meta.url));
const packageRoot = fileURLToPath(new URL("../../../", import.meta.url));
const entry = fileURLToPath(new URL("./run-child.ts", import.meta.url));
const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)\.js["']/g;

let built: Promise<{ script: string; dir: string }> | undefined;

async function buildChild(): Promise<{ script: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "skillshelf-workflow-js-"));
  await symlink(join(packageRoot, "node_modules"), join(dir, "node_modules"), "dir");
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  const queue = [entry];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(file, "utf8");
    for (const match of code.matchAll(LOCAL_IMPORT)) queue.push(resolve(dirname(file), `${match[1]}.ts`));
    const target = join(dir, relative(sourceRoot, file)).replace(/\.ts$/, ".js");
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, stripTypeScriptTypes(code, { mode: "transform" }));
  }
  return { script: join(dir, relative(sourceRoot, entry)).replace(/\.ts$/, ".js"), dir };
}

export async function disposeRunnerBuild(): Promise<void> {
  if (!built) return;
  const { dir } = await built;
  built = undefined;
  await rm(dir, { recursive: true, force: true });
}

export interface RunnerProcess {
  child: ChildProcess;
  nextLine(): Promise<string>;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function spawnRunner(
  stateDir: string,
  skillDir: string,
  effects: string,
): Promise<RunnerProcess> {
  built ??= buildChild();
  const { script } = await built;
  const child = spawn(process.execPath, [script, stateDir, skillDir, effects], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NODE_COMPILE_CACHE: join(tmpdir(), "skillshelf-fault-compile-cache") },
  });
  const lines: string[] = [];
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let read = 0;
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    const waiter = waiting.shift();
    if (waiter) {
      read++;
      waiter.resolve(line);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on("exit", (code, signal) => {
      for (const waiter of waiting.splice(0)) {
        waiter.reject(
          new Error(`runner exited (${signal ?? code}) before printing a line; stderr: ${stderr}`),
        );
      }
      done({ code, signal });
    });
  });
  return {
    child,
    lines,
    exited,
    nextLine() {
      if (read < lines.length) return Promise.resolve(lines[read++]!);
      if (child.exitCode !== null || child.signalCode !== null) {
        return Promise.reject(new Error(`runner has exited; stderr: ${stderr}`));
      }
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}
