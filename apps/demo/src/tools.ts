import { execFileSync } from "node:child_process";
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { recordedLog, type Sandbox } from "./sandbox.js";

/**
 * The demo's tools, framework-neutral: each runner wraps them in its framework's tool type.
 * Every path is resolved inside the sandbox and refused if it escapes it.
 */
export interface DemoTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: S;
  execute(input: z.infer<S>): Promise<string>;
}

export function createDemoTools(sandbox: Sandbox): DemoTool[] {
  const inside = (p: string) => {
    const full = resolve(sandbox.dir, p);
    if (full !== sandbox.dir && !full.startsWith(sandbox.dir + sep))
      throw new Error(`path outside the workspace: ${p}`);
    return full;
  };
  // Writes stay out of hidden folders: skills change through skillshelf's managed writes
  // (versioned, undoable), and .git is git's.
  const writable = (p: string) => {
    const full = inside(p);
    if (
      relative(sandbox.dir, full)
        .split(sep)
        .some((s) => s.startsWith("."))
    ) {
      throw new Error(`not writable: ${p} is in a hidden folder`);
    }
    return full;
  };
  const tools: DemoTool[] = [
    {
      name: "git_log",
      description: "Show the repository's commit history, newest first (hash and message).",
      schema: z.object({ limit: z.number().int().positive().max(100).optional() }),
      async execute({ limit }) {
        const log = sandbox.git
          ? execFileSync("git", ["log", "--format=%h %s"], { cwd: sandbox.dir, encoding: "utf8" }).trim()
          : recordedLog();
        return log
          .split("\n")
          .slice(0, limit ?? 50)
          .join("\n");
      },
    },
    {
      name: "list_files",
      description: "List the files in a folder of the workspace (recursively, relative paths).",
      schema: z.object({ folder: z.string().default(".") }),
      async execute({ folder }) {
        const root = inside(folder ?? ".");
        const entries = await readdir(root, { recursive: true, withFileTypes: true });
        return entries
          .filter(
            (e) =>
              e.isFile() &&
              !relative(sandbox.dir, join(e.parentPath, e.name))
                .split(sep)
                .some((s) => s.startsWith(".")),
          )
          .map((e) => relative(sandbox.dir, join(e.parentPath, e.name)))
          .sort()
          .join("\n");
      },
    },
    {
      name: "read_file",
      description: "Read a text file of the workspace.",
      schema: z.object({ path: z.string() }),
      async execute({ path }) {
        return readFile(inside(path), "utf8");
      },
    },
    {
      name: "grep",
      description: "Search the workspace's source files for a regular expression; returns file:line: text.",
      schema: z.object({ pattern: z.string() }),
      async execute({ pattern }) {
        const re = new RegExp(pattern, "i");
        const files = (await tools[1]!.execute({ folder: "src" })).split("\n").filter(Boolean);
        const hits: string[] = [];
        for (const file of files) {
          const lines = (await readFile(inside(file), "utf8")).split("\n");
          lines.forEach((line, i) => {
            if (re.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
          });
        }
        return hits.join("\n") || "no matches";
      },
    },
    {
      name: "write_file",
      description: "Create or overwrite a text file in the workspace.",
      schema: z.object({ path: z.string(), content: z.string() }),
      async execute({ path, content }) {
        await writeFile(writable(path), content);
        return `wrote ${path} (${content.length} bytes)`;
      },
    },
    {
      name: "rename_file",
      description: "Rename (move) one file inside the workspace.",
      schema: z.object({ from: z.string(), to: z.string() }),
      async execute({ from, to }) {
        await rename(writable(from), writable(to));
        return `renamed ${from} → ${to}`;
      },
    },
  ];
  return tools;
}
