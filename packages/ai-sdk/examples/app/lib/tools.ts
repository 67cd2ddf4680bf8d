import { readdir, readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { tool } from "ai";
import { z } from "zod";

// The files the assistant may look at. Skills can narrow this set (allowed-tools); they
// can never widen it.
const workspace = resolve(process.env.WORKSPACE_DIR ?? process.cwd());

function inside(path: string): string {
  const full = resolve(workspace, path);
  const rel = relative(workspace, full);
  if (rel.startsWith("..") || isAbsolute(rel)) throw new Error(`${path} is outside the workspace`);
  return full;
}

export const tools = {
  list_files: tool({
    description: "List the entries of a folder in the workspace.",
    inputSchema: z.object({ dir: z.string().default(".").describe("Folder, relative to the workspace") }),
    execute: async ({ dir }) => {
      const entries = await readdir(inside(dir), { withFileTypes: true });
      return entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
    },
  }),
  read_file: tool({
    description: "Read a UTF-8 text file from the workspace.",
    inputSchema: z.object({ path: z.string().describe("File, relative to the workspace") }),
    execute: async ({ path }) => (await readFile(inside(path), "utf8")).slice(0, 50_000),
  }),
};
