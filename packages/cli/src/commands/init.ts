/**
 * `skillshelf init [name] [--root DIR] [--user] [--json]`: scaffolds a new skill,
 * `<root>/.skillshelf/skills/<name>/SKILL.md` (or under `~/.skillshelf/skills` with
 * `--user`), with the description layers as commented guidance. Never overwrites.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkName, normalizeName, suggestName } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath } from "./format-diagnostics.js";
import { firstNotFolder } from "./runtime-shelf.js";
import { skillScaffold } from "./skill-scaffold.js";

export const HELP = `Usage: skillshelf init [name] [--root DIR | --user] [--json]

Creates <root>/.skillshelf/skills/<name>/SKILL.md: a valid skill with the layers of a
good description (boundary, trigger signals, preconditions, output, examples,
exclusions) as comments, and TODO where you write. 'skillshelf lint' points at what is
left to write. An existing skill is never overwritten.

Arguments:
  name        the skill's name: lower-case letters, digits and hyphens (default: one made
              from the root folder's name)

Options:
  --root DIR  project root (default: the current folder)
  --user      create it in your user skills, ~/.skillshelf/skills
  --json      print {name, file} of the created skill
  -h, --help  show this help

Exit status: 0 when created, 1 when the skill already exists or cannot be written, 2 on
bad usage (an invalid name, a --root that is not a folder).
`;

const FALLBACK_NAME = "my-skill";

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("init", args, ctx, parse, HELP, {
    ok: (n) => n <= 1,
    usage: "give at most one skill name",
  });
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const usageError = (message: string) => {
    ctx.err(`skillshelf init: ${message}\n\n${HELP}`);
    return 2;
  };
  if (values.user && values.root !== undefined) return usageError("give --root or --user, not both");

  const root = path.resolve(ctx.cwd, values.root ?? ".");
  if (values.root !== undefined) {
    const notFolder = firstNotFolder([["--root", root]]);
    if (notFolder) return usageError(notFolder);
  }
  let skillsDir: string;
  if (values.user) {
    if (!ctx.env.HOME) return usageError("--user needs HOME to be set");
    skillsDir = path.join(ctx.env.HOME, ".skillshelf", "skills");
  } else {
    skillsDir = path.join(root, ".skillshelf", "skills");
  }

  const given = parsed.positionals[0];
  const name = given === undefined ? suggestName(path.basename(root)) || FALLBACK_NAME : normalizeName(given);
  const problems = checkName(name);
  if (problems.length > 0) {
    const suggestion = suggestName(name);
    return usageError(
      `${problems.map((p) => p.message).join("; ")}${suggestion && checkName(suggestion).length === 0 ? `; try "${suggestion}"` : ""}`,
    );
  }

  const skillDir = path.join(skillsDir, name);
  const file = path.join(skillDir, "SKILL.md");
  try {
    await fs.mkdir(skillsDir, { recursive: true });
    // Not recursive: an existing folder (a skill, or anything else by that name) is an error.
    await fs.mkdir(skillDir);
    // "wx": fails rather than follow or replace whatever appeared there in the meantime.
    await fs.writeFile(file, skillScaffold(name), { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const shown = displayPath(code === "EEXIST" ? skillDir : file, ctx);
    ctx.err(
      code === "EEXIST"
        ? `skillshelf init: ${shown} already exists; nothing was written (pick another name, or edit that skill)\n`
        : `skillshelf init: cannot write ${shown}: ${(error as Error).message}\n`,
    );
    return 1;
  }

  const shown = displayPath(file, ctx);
  if (values.json) ctx.out(`${JSON.stringify({ name, file }, null, 2)}\n`);
  else
    ctx.out(
      `${ctx.color.green("✔")} created ${shown}\n  Replace each TODO, then check it with 'skillshelf lint ${displayPath(skillDir, ctx)}'.\n`,
    );
  return 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      root: { type: "string" },
      user: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
