import type { CommandContext } from "./context.js";

interface ParsedArgs {
  values: { help?: boolean };
  positionals: string[];
}

/**
 * The start every command shares: parse its flags, answer --help, check how many
 * positional arguments it got. Returns the parsed arguments, or the exit code to return
 * (0 after --help, 2 on bad usage, with the message and the help on stderr).
 */
export function startCommand<P extends ParsedArgs>(
  name: string,
  args: string[],
  ctx: CommandContext,
  parse: (args: string[]) => P,
  help: string,
  positionals?: { ok: (count: number) => boolean; usage: string },
): P | number {
  let parsed: P;
  try {
    parsed = parse(args);
  } catch (error) {
    ctx.err(`skillshelf ${name}: ${(error as Error).message}\n\n${help}`);
    return 2;
  }
  if (parsed.values.help) {
    ctx.out(help);
    return 0;
  }
  if (positionals && !positionals.ok(parsed.positionals.length)) {
    ctx.err(`skillshelf ${name}: ${positionals.usage}\n\n${help}`);
    return 2;
  }
  return parsed;
}
