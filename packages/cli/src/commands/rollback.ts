/**
 * `skillshelf rollback <name> <version>`: restores a kept version as a new managed write
 * (version bumped, the replaced version kept), so a rollback can itself be rolled back.
 */
import { parseArgs } from "node:util";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { VERSIONED_HELP, VERSIONED_OPTIONS, withShelf } from "./versioned-shelf.js";

export const HELP = `Usage: skillshelf rollback <name> <version> [options]

Restores a kept version of a skill (see 'skillshelf history'). The restore is itself a
managed write: the version number goes up, and the version it replaces is kept, so it
can be undone the same way.

Options:
  --expected-hash H  refuse (CONFLICT) unless the current file has this sha256 (for
                     scripts that checked the file first)
  --json             print the write result as JSON
${VERSIONED_HELP}
  -h, --help         show this help

Exit status: 0; 1 when refused (unknown version, builtin skill, CONFLICT, lock held);
2 on bad usage.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("rollback", args, ctx, parse, HELP, {
    ok: (n) => n === 2,
    usage: "give a skill name and the version to restore",
  });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const [name, ref] = positionals as [string, string];
  return withShelf("rollback", values, ctx, async (shelf) => {
    const result = await shelf.rollback(
      name,
      ref,
      values["expected-hash"] ? { expectedHash: values["expected-hash"] } : {},
    );
    if (values.json) {
      ctx.out(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    if (!result.changed) {
      ctx.out(`${name}: ${ref} is already the current content; nothing to do\n`);
      return 0;
    }
    const c = ctx.color;
    const previous = (await shelf.history(name))[1];
    ctx.out(
      `${c.bold(name)}: restored ${result.restored} as version ${result.version ?? "(unversioned)"} (sha256 ${result.hash.slice(0, 12)}…)\n`,
    );
    for (const note of result.notes) ctx.out(`  note: ${note}\n`);
    if (previous) ctx.out(c.dim(`Undo: skillshelf rollback ${name} ${previous.id}\n`));
    return 0;
  });
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      "expected-hash": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      ...VERSIONED_OPTIONS,
    },
  });
}
