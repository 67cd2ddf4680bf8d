/**
 * Where `add` and `remove` install: the project's `.skillshelf/skills` (under `--root`,
 * default the current folder) or, with `--user`, `~/.skillshelf/skills`; the lock file and
 * the history (state folder) beside it.
 */
import path from "node:path";
import type { CommandContext } from "../context.js";
import { firstNotFolder } from "./runtime-shelf.js";
import { LOCK_FILE } from "./skills-lock.js";

export interface InstallScope {
  scope: "project" | "user";
  skillsDir: string;
  lockFile: string;
  /** skillshelf's state folder, where each skill's history starts. */
  stateDir: string;
}

export const INSTALL_HELP = `  --root DIR       project root (default: the current folder): skills go to
                   <root>/.skillshelf/skills, the lock file is .skillshelf/${LOCK_FILE}
  --user           your user skills instead: ~/.skillshelf/skills, ~/.skillshelf/${LOCK_FILE}
  --state-dir DIR  where the skills' history is kept (default: the .skillshelf folder above)`;

export function installScope(
  values: { root?: string; user?: boolean; "state-dir"?: string },
  ctx: CommandContext,
): InstallScope | string {
  if (values.user && values.root !== undefined) return "give --root or --user, not both";
  let base: string;
  if (values.user) {
    if (!ctx.env.HOME) return "--user needs HOME to be set";
    base = path.join(ctx.env.HOME, ".skillshelf");
  } else {
    const root = path.resolve(ctx.cwd, values.root ?? ".");
    if (values.root !== undefined) {
      const notFolder = firstNotFolder([["--root", root]]);
      if (notFolder) return notFolder;
    }
    base = path.join(root, ".skillshelf");
  }
  return {
    scope: values.user ? "user" : "project",
    skillsDir: path.join(base, "skills"),
    lockFile: path.join(base, LOCK_FILE),
    stateDir: values["state-dir"] !== undefined ? path.resolve(ctx.cwd, values["state-dir"]) : base,
  };
}
