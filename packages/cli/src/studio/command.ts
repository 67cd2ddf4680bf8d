/**
 * `skillshelf studio`: a local web page over the shelf — skills, the match explorer,
 * improvement cards and history — served until Ctrl-C.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { startCommand } from "../args.js";
import { openShelf, SHELF_HELP, SHELF_OPTIONS } from "../commands/runtime-shelf.js";
import type { CommandContext } from "../context.js";
import { startStudio } from "./studio-server.js";

export const HELP = `Usage: skillshelf studio [options]

Serves a local web page over the shelf: Shelf (skills, shadowing, trust, diagnostics,
usage), Match explorer (candidates, vetoes, the catalog and its budget), Improvements
(review, accept or reject proposals) and History (versions, diffs, rollback, the ledger).
It listens on 127.0.0.1 only; the printed URL carries a token that every call needs.
Stop it with Ctrl-C.

Options:
  --port N           port to listen on (default: a free one)
  --open             open the page in the default browser
  --budget N         catalog token budget shown in the Match explorer (default 4000)
${SHELF_HELP}
  -h, --help         show this help

Exit status: 0 after Ctrl-C; 1 when the port cannot be used; 2 on bad usage.
`;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      open: { type: "boolean" },
      budget: { type: "string" },
      help: { type: "boolean", short: "h" },
      ...SHELF_OPTIONS,
    },
  });
}

function wholeNumber(
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** Resolves on the first Ctrl-C or SIGTERM (a test may pass its own signal). */
function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    if (signal) {
      if (signal.aborted) return resolve();
      signal.addEventListener("abort", stop, { once: true });
    }
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** The platform's opener, without a shell: the URL is one argument, never parsed as a command. */
function openInBrowser(url: string, ctx: CommandContext): void {
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["rundll32", "url.dll,FileProtocolHandler", url]
        : ["xdg-open", url];
  const child = spawn(command as string, args, { stdio: "ignore", detached: true });
  child.on("error", () => ctx.err(`skillshelf studio: could not start ${command}; open the URL yourself\n`));
  child.unref();
}

export async function run(args: string[], ctx: CommandContext, stop?: AbortSignal): Promise<number> {
  const parsed = startCommand("studio", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const port = wholeNumber(values.port, 0, 0, 65_535);
  const budget = wholeNumber(values.budget, 4_000, 1, Number.MAX_SAFE_INTEGER);
  if (port === undefined || budget === undefined) {
    ctx.err(`skillshelf studio: --port must be 0..65535 and --budget a positive whole number\n`);
    return 2;
  }
  const shelf = await openShelf(values, ctx, { catalog: { budgetTokens: budget } });
  if (typeof shelf === "string") {
    ctx.err(`skillshelf studio: ${shelf}\n`);
    return 2;
  }
  try {
    let studio: Awaited<ReturnType<typeof startStudio>>;
    try {
      studio = await startStudio({ shelf, home: ctx.env.HOME, port, budgetTokens: budget });
    } catch (error) {
      ctx.err(`skillshelf studio: cannot listen on 127.0.0.1:${port}: ${(error as Error).message}\n`);
      return 1;
    }
    ctx.out(
      `skillshelf studio: ${studio.url}\n(loopback only; the token in the URL is this run's. Ctrl-C stops.)\n`,
    );
    if (values.open) openInBrowser(studio.url, ctx);
    await untilStopped(stop);
    await studio.close();
    return 0;
  } finally {
    await shelf.close();
  }
}
