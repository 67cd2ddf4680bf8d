import type { CommandContext } from "./context.js";
import { closestOption } from "./did-you-mean.js";

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
    ctx.err(`skillshelf ${name}: ${parseErrorMessage(error as Error & { code?: string }, help)}\n\n${help}`);
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

/** node:util's parse errors, with a suggestion for a mistyped option. */
function parseErrorMessage(error: Error & { code?: string }, help: string): string {
  const typed = /'(-[^']*)'/.exec(error.message)?.[1];
  if (error.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION" || !typed) return error.message;
  const suggestion = closestOption(typed, help);
  return `unknown option '${typed}'${suggestion ? `; did you mean '${suggestion}'?` : ""}`;
}
