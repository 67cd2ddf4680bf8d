/**
 * The shelf `match`, `catalog` and `eval` inspect: the same folders `list` reads, with
 * skillshelf's usage data read but never written (an inspection must not change what it
 * inspects: usage stays in memory, no event is logged).
 */
import { type Stats, statSync } from "node:fs";
import path from "node:path";
import type { ParseArgsConfig } from "node:util";
import {
  createFileUsageStore,
  createMemoryUsageStore,
  createShelf,
  type MatcherOptions,
  type Shelf,
  type ShelfOptions,
} from "@skillshelf/core";
import type { CommandContext } from "../context.js";

export const SHELF_OPTIONS = {
  root: { type: "string" },
  project: { type: "string", multiple: true },
  user: { type: "string", multiple: true },
  claude: { type: "boolean" },
  "state-dir": { type: "string" },
  "min-score": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

export const SHELF_HELP = `  --root DIR         project root (default: the current folder)
  --project DIR      a project skill folder holding <name>/SKILL.md; repeatable, replaces
                     .skillshelf/skills and .agents/skills under the root
  --user DIR         a user skill folder; repeatable, replaces ~/.skillshelf/skills and
                     ~/.agents/skills
  --claude           also read .claude/skills
  --state-dir DIR    skillshelf's state folder, for usage (default <root>/.skillshelf)
  --min-score X      the none-threshold, 0..1 (default: the matcher's)`;

export interface ShelfArgs {
  root?: string;
  project?: string[];
  user?: string[];
  claude?: boolean;
  "state-dir"?: string;
  "min-score"?: string;
}

/** A number in [0, 1], or an error message. */
export function parseScore(value: string | undefined, flag: string): number | undefined | string {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : `${flag} must be a number from 0 to 1, got "${value}"`;
}

export async function openShelf(
  values: ShelfArgs,
  ctx: CommandContext,
  extra: Partial<ShelfOptions> = {},
): Promise<Shelf | string> {
  const minScore = parseScore(values["min-score"], "--min-score");
  if (typeof minScore === "string") return minScore;
  const fromCwd = (dir: string) => path.resolve(ctx.cwd, dir);
  const root = fromCwd(values.root ?? ".");
  // Not --user: a user folder that does not exist yet is the usual case (no user skills).
  const notFolder = firstNotFolder([
    ...(values.root !== undefined ? [["--root", root] as const] : []),
    ...(values.project ?? []).map((dir) => ["--project", fromCwd(dir)] as const),
  ]);
  if (notFolder) return notFolder;
  const stateDir = path.resolve(root, values["state-dir"] ?? ".skillshelf");
  const usage = createMemoryUsageStore(createFileUsageStore({ dir: stateDir }).all());
  const matcher: MatcherOptions = minScore === undefined ? {} : { minScore };
  const home = ctx.env.HOME;
  return createShelf({
    root,
    ...(values.project ? { projectDirs: values.project.map(fromCwd) } : {}),
    ...(values.user
      ? { userDirs: values.user.map(fromCwd) }
      : home
        ? { userDirs: [path.join(home, ".skillshelf", "skills"), path.join(home, ".agents", "skills")] }
        : {}),
    ...(values.claude ? { claude: true } : {}),
    stateDir,
    events: false,
    usage,
    matcher,
    ...extra,
  });
}

/**
 * The first folder named on the command line that is missing or not a folder, as an error
 * message: a mistyped path must not read as "no skills here".
 */
export function firstNotFolder(paths: readonly (readonly [flag: string, dir: string])[]): string | undefined {
  for (const [flag, dir] of paths) {
    let stats: Stats;
    try {
      stats = statSync(dir);
    } catch {
      return `${flag} ${dir} does not exist`;
    }
    if (!stats.isDirectory()) return `${flag} ${dir} is not a folder`;
  }
  return undefined;
}
