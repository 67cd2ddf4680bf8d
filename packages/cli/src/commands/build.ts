/**
 * `skillshelf build`: writes a prebuilt shelf — every skill file parsed, its diagnostics,
 * and the stage-1 index's terms — to one file that `createShelf` reads at start-up instead
 * of parsing every SKILL.md (a serverless cold start, a read-only deployment).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { buildPrebuiltShelf, checkPrebuiltShelf } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, formatDiagnostics, plural } from "./format-diagnostics.js";

export const HELP = `Usage: skillshelf build [--root DIR] [--out FILE] [--project DIR]... [--user DIR]... [--claude] [--strict] [--no-builtin-roles] [--check]

Parses every skill the app's shelf would load and writes them, with their diagnostics and
the matching index, to one file. createShelf() reads <root>/.skillshelf/prebuilt-shelf.bin
when it exists (or the file its \`prebuilt\` option names), instead of parsing each SKILL.md.
Run it when you build or deploy the app, with the same folders and mode the app uses.
The folders are still scanned at start-up: a skill changed since the build is read from
its file, and a skill is checked against its file before it is activated.

Options:
  --root DIR      project root (default: the current folder)
  --out FILE      where to write (default: <root>/.skillshelf/prebuilt-shelf.bin)
  --project DIR   a project skill folder, holding <name>/SKILL.md; repeatable, replaces
                  the default project folders (.skillshelf/skills, .agents/skills)
  --user DIR      a user skill folder; repeatable. Default: none — a deployed app should
                  not depend on the build machine's home folder
  --claude        also read .claude/skills under the root
  --strict        parse with the specification's rules (as createShelf's mode: "strict")
  --no-builtin-roles
                  the app's shelf has builtinRoles: false (the index is laid out for
                  the skills that shelf offers; a start with other roles lays it out itself)
  --check         write nothing: check that the prebuilt shelf is there, built for these
                  folders and mode, current, and that every skill in it matches its file
  -h, --help      show this help

Exit status: 0 when written (files that do not load are reported and recorded), 1 when
it cannot be written, 2 on bad usage. With --check: 0 when it is current, 1 when it is
missing, unusable, out of date or disagrees with a skill file (each problem is printed).
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("build", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const fromCwd = (dir: string) => path.resolve(ctx.cwd, dir);
  const options = {
    root: fromCwd(values.root ?? "."),
    projectDirs: values.project?.map(fromCwd),
    userDirs: values.user?.map(fromCwd) ?? [],
    home: ctx.env.HOME,
    claude: values.claude,
    mode: values.strict ? ("strict" as const) : ("lenient" as const),
    out: values.out ? fromCwd(values.out) : undefined,
    builtinRoles: !values["no-builtin-roles"],
  };
  if (values.check) {
    const checked = await checkPrebuiltShelf(options);
    if (checked.ok) {
      ctx.out(`${displayPath(checked.file, ctx)} is current.\n`);
      return 0;
    }
    ctx.err(formatDiagnostics(checked.problems, ctx));
    return 1;
  }
  try {
    const result = await buildPrebuiltShelf(options);
    const problems = result.diagnostics.filter((d) => d.severity !== "info");
    if (problems.length > 0) ctx.err(formatDiagnostics(problems, ctx));
    ctx.out(
      `Wrote ${displayPath(result.file, ctx)}: ${plural(result.skills, "skill")} from ${plural(result.files, "file")}, ${(result.bytes / 1024).toFixed(0)} KiB.\n`,
    );
    return 0;
  } catch (error) {
    ctx.err(`skillshelf build: cannot write the prebuilt shelf: ${(error as Error).message}\n`);
    return 1;
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      root: { type: "string" },
      out: { type: "string" },
      project: { type: "string", multiple: true },
      user: { type: "string", multiple: true },
      claude: { type: "boolean" },
      strict: { type: "boolean" },
      "no-builtin-roles": { type: "boolean" },
      check: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
