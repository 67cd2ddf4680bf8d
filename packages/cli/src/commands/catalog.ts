/**
 * `skillshelf catalog [--message "…"] [--budget N]`: the exact system text a model would be
 * given this turn (the catalog of skills, candidates first), and its token count — taken
 * from a real session's plan, so it cannot drift from what hosts send.
 */
import { parseArgs } from "node:util";
import { estimateTokens } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { openShelf, SHELF_HELP, SHELF_OPTIONS } from "./runtime-shelf.js";

export const HELP = `Usage: skillshelf catalog [--message "<message>"] [--budget N] [options]

Prints the exact system text the model sees about skills, then its token count (on stderr,
so stdout is the text alone). With --message, that message's stage-1 candidates come first.

Options:
  --message TEXT     the user's message this turn
  --budget N         catalog token budget (default 4000)
  --entry-cap N      characters per catalog entry (default 250)
  --json             print { text, tokens, budget } as JSON
${SHELF_HELP}
  -h, --help         show this help

Tokens are the default estimate (about 4 characters per English token, one per CJK
character); a host can plug in an exact tokenizer.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("catalog", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const budget = positiveInt(values.budget, 4_000);
  const entryCap = positiveInt(values["entry-cap"], 250);
  if (budget === undefined || entryCap === undefined) {
    ctx.err(`skillshelf catalog: --budget and --entry-cap must be positive whole numbers\n`);
    return 2;
  }
  const shelf = await openShelf(values, ctx, { catalog: { budgetTokens: budget, entryCap } });
  if (typeof shelf === "string") {
    ctx.err(`skillshelf catalog: ${shelf}\n`);
    return 2;
  }
  try {
    const plan = shelf
      .session()
      .plan({ tools: [], ...(values.message !== undefined ? { message: values.message } : {}) });
    const tokens = estimateTokens(plan.system);
    if (values.json) {
      ctx.out(
        `${JSON.stringify({ text: plan.system, tokens, budget, candidates: plan.candidates.map((c) => c.name) }, null, 2)}\n`,
      );
    } else {
      ctx.out(plan.system.endsWith("\n") || plan.system === "" ? plan.system : `${plan.system}\n`);
      const first =
        plan.candidates.length > 0
          ? `; candidates first: ${plan.candidates.map((c) => c.name).join(", ")}`
          : "";
      ctx.err(ctx.color.dim(`— ${tokens} tokens (estimate) of a ${budget}-token budget${first}\n`));
    }
    return 0;
  } finally {
    await shelf.close();
  }
}

function positiveInt(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      message: { type: "string" },
      budget: { type: "string" },
      "entry-cap": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      ...SHELF_OPTIONS,
    },
  });
}
