/**
 * Where skills come from. Turns ShelfOptions into an ordered list of folders, highest
 * precedence first: project folders, then user folders. Builtins come from code and are
 * not a folder (see builtin.ts).
 */
import os from "node:os";
import path from "node:path";
import type { Scope } from "../types.js";

/** One folder skills are scanned from. `rank` orders folders within the whole shelf (0 = highest). */
export interface SourceRoot {
  dir: string;
  scope: Exclude<Scope, "builtin">;
  rank: number;
}

export interface SourceOptions {
  root?: string;
  projectDirs?: string[];
  userDirs?: string[];
  claude?: boolean;
  /** Home folder for `~` and the default user folders (default: os.homedir()). */
  home?: string;
}

/** The Agent Skills convention: a client folder (`.skillshelf`) plus the shared `.agents` folder. */
export const DEFAULT_PROJECT_DIRS = [".skillshelf/skills", ".agents/skills"] as const;
export const DEFAULT_USER_DIRS = ["~/.skillshelf/skills", "~/.agents/skills"] as const;
/** Opt-in (`claude: true`), lowest within its scope. */
export const CLAUDE_DIR = ".claude/skills";

/**
 * Resolves the skill folders. Relative project folders are taken from `root`, relative user
 * folders from `root` too (a leading `~` means home). `claude: true` appends `.claude/skills`
 * under the root and under home, after the folders of each scope. The same folder listed twice
 * is kept once, at its highest position.
 */
export function resolveSources(options: SourceOptions = {}): SourceRoot[] {
  const root = path.resolve(options.root ?? process.cwd());
  const home = options.home ?? os.homedir();
  const expand = (dir: string) => {
    if (dir === "~") return home;
    if (dir.startsWith("~/") || dir.startsWith("~\\")) return path.join(home, dir.slice(2));
    return path.resolve(root, dir);
  };

  const project = [...(options.projectDirs ?? DEFAULT_PROJECT_DIRS)].map(expand);
  const user = [...(options.userDirs ?? DEFAULT_USER_DIRS)].map(expand);
  if (options.claude) {
    project.push(path.join(root, CLAUDE_DIR));
    user.push(path.join(home, CLAUDE_DIR));
  }

  const seen = new Set<string>();
  const roots: SourceRoot[] = [];
  const add = (dir: string, scope: SourceRoot["scope"]) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    roots.push({ dir, scope, rank: roots.length });
  };
  for (const dir of project) add(dir, "project");
  for (const dir of user) add(dir, "user");
  return roots;
}
