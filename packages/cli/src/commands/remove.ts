/**
 * `skillshelf remove <name> [--root DIR | --user] [--force] [--json]`: removes a skill
 * `skillshelf add` installed, and its lock-file entry. A skill the lock file does not list
 * (one you wrote) is never removed, and one whose files changed since it was installed is
 * removed only with `--force`. Its history stays, so its versions can still be read.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkName, normalizeName, sha256 } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath } from "./format-diagnostics.js";
import { INSTALL_HELP, installScope } from "./install-scope.js";
import { type InstalledSkill, LockFileError, updateSkillsLock } from "./skills-lock.js";

export const HELP = `Usage: skillshelf remove <name> [--root DIR | --user] [--force] [--json]

Removes a skill that 'skillshelf add' installed, and its entry in the lock file. A skill
the lock file does not list is never removed; one whose files changed since it was
installed is removed only with --force. Its history is kept.

Options:
${INSTALL_HELP}
  --force          remove it even though its files changed since it was installed
  --json           print what was removed
  -h, --help       show this help

Exit status: 0 when removed, 1 when refused, 2 on bad usage.
`;

type Outcome =
  | { removed: InstalledSkill }
  | { refused: "not-installed" }
  | { refused: "changed"; files: string[] };

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("remove", args, ctx, parse, HELP, {
    ok: (n) => n === 1,
    usage: "give the name of one installed skill",
  });
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const where = installScope(values, ctx);
  const name = normalizeName(parsed.positionals[0]!);
  const problem = typeof where === "string" ? where : checkName(name)[0]?.message;
  if (problem !== undefined || typeof where === "string") {
    ctx.err(`skillshelf remove: ${problem}\n\n${HELP}`);
    return 2;
  }
  const dir = path.join(where.skillsDir, name);
  let outcome: Outcome;
  try {
    outcome = await updateSkillsLock<Outcome>(where.lockFile, async (lock) => {
      const entry = Object.hasOwn(lock.skills, name) ? lock.skills[name] : undefined;
      if (!entry) return { lock, result: { refused: "not-installed" } };
      const changed = values.force ? [] : await changedFiles(dir, entry);
      if (changed.length > 0) return { lock, result: { refused: "changed", files: changed } };
      const info = await fs.lstat(dir).catch(() => undefined);
      if (info) {
        // Moved aside first: the skill disappears at once, never half-deleted.
        const aside = path.join(where.skillsDir, `.${name}.removed-${randomBytes(6).toString("hex")}`);
        await fs.rename(dir, aside);
        await fs.rm(aside, { recursive: true, force: true });
      }
      delete lock.skills[name];
      return { lock, result: { removed: entry } };
    });
  } catch (error) {
    if (error instanceof LockFileError) {
      ctx.err(`skillshelf remove: ${error.message}\n`);
      return 1;
    }
    throw error;
  }

  const shown = displayPath(dir, ctx);
  if ("refused" in outcome) {
    ctx.err(
      outcome.refused === "not-installed"
        ? `skillshelf remove: ${name} is not in ${displayPath(where.lockFile, ctx)} (it was not installed by 'skillshelf add'); nothing was removed\n`
        : `skillshelf remove: ${shown} changed since it was installed (${outcome.files.join(", ")}); nothing was removed (--force removes it anyway; its history is kept)\n`,
    );
    return 1;
  }
  if (values.json) ctx.out(`${JSON.stringify({ name, dir, source: outcome.removed.source }, null, 2)}\n`);
  else
    ctx.out(`${ctx.color.green("✔")} removed ${name} (${shown}), installed from ${outcome.removed.source}\n`);
  return 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      root: { type: "string" },
      user: { type: "boolean" },
      "state-dir": { type: "string" },
      force: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** The installed files whose content is no longer what was installed (or that are gone). */
async function changedFiles(dir: string, entry: InstalledSkill): Promise<string[]> {
  const changed: string[] = [];
  for (const [rel, hash] of Object.entries(entry.files)) {
    const content = await fs.readFile(path.join(dir, rel)).catch(() => undefined);
    if (content === undefined || sha256(content) !== hash) changed.push(rel);
  }
  return changed;
}
