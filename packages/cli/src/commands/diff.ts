/**
 * `skillshelf diff <name> <a> [b]`: a unified diff between two kept versions of a skill,
 * `b` defaulting to the current file.
 */
import { parseArgs } from "node:util";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { colorDiff, VERSIONED_HELP, VERSIONED_OPTIONS, withShelf } from "./versioned-shelf.js";

export const HELP = `Usage: skillshelf diff <name> <a> [b] [options]

A unified diff from version a to version b (default: the current file). A version is
'current', an id from 'skillshelf history' (or a unique prefix), ~N (N versions back),
a version number (1.0.3), or a sha256 prefix.

Options:
  -U, --context N    lines of context (default 3)
${VERSIONED_HELP}
  -h, --help         show this help

Exit status: 0; 1 when a version or the skill is not found; 2 on bad usage.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("diff", args, ctx, parse, HELP, {
    ok: (n) => n === 2 || n === 3,
    usage: "give a skill name and one or two versions",
  });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const context = values.context === undefined ? 3 : Number(values.context);
  if (!Number.isInteger(context) || context < 0) {
    ctx.err(`skillshelf diff: --context must be a whole number, got "${values.context}"\n`);
    return 2;
  }
  const [name, a, b = "current"] = positionals as [string, string, string?];
  return withShelf("diff", values, ctx, async (shelf) => {
    const patch = await shelf.diff(name, a, b, { context });
    if (!patch.includes("\n@@")) {
      ctx.out(`${name}: ${a} and ${b} are identical\n`);
      return 0;
    }
    ctx.out(`${colorDiff(patch.replace(/^=+\n/, ""), ctx)}`);
    return 0;
  });
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      context: { type: "string", short: "U" },
      help: { type: "boolean", short: "h" },
      ...VERSIONED_OPTIONS,
    },
  });
}
