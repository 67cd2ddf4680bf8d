/**
 * Starts writer-child in its own node process and reads its stdout line by line.
 *
 * The child runs plain JavaScript: once per test process, the TypeScript sources it
 * imports are turned into JS (node's own `stripTypeScriptTypes`) in a temp folder whose
 * `node_modules` points at this package's. That keeps a start near 0.07 CPU-seconds
 * instead of ~0.2 with on-the-fly transforms, which is what makes hundreds of kills cheap.
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
const entry = fileURLToPath(new URL("./writer-child.ts", import.meta.url));
const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)\.js["']/g;

let built: Promise<{ script: string; dir: string }> | undefined;

async function buildChild(): Promise<{ script: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "skillshelf-fault-js-"));
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

/** Removes the compiled child (call from afterAll). */
export async function disposeWriterBuild(): Promise<void> {
  if (!built) return;
  const { dir } = await built;
  built = undefined;
  await rm(dir, { recursive: true, force: true });
}

export interface WriterProcess {
  child: ChildProcess;
  /** Resolves with the next stdout line (rejects if the process exits first). */
  nextLine(): Promise<string>;
  /** Every line printed so far. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function spawnWriter(
  mode: "loop" | "race" | "events" | "events-end" | "usage" | "usage-exit",
  root: string,
  keep: number,
  ...extra: string[]
): Promise<WriterProcess> {
  built ??= buildChild();
  const { script } = await built;
  const child = spawn(process.execPath, [script, mode, root, String(keep), ...extra], {
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
          new Error(`writer exited (${signal ?? code}) before printing a line; stderr: ${stderr}`),
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
        return Promise.reject(new Error(`writer has exited; stderr: ${stderr}`));
      }
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}
