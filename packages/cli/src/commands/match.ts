/**
 * `skillshelf match "<message>"`: stage 1 for one message — the candidates with their
 * scores and the reasons behind each (trigger, name, example, words), the skills an
 * exclusion vetoed, whether the top two are too close to call, and the near-misses: skills
 * some words pointed at that are not candidates, and why ("only generic words matched").
 */
import { parseArgs } from "node:util";
import type { Candidate, MatchReason, MatchResult, Rejected } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { columnWidth, padEndColumns } from "../text-width.js";
import { openShelf, SHELF_HELP, SHELF_OPTIONS } from "./runtime-shelf.js";

export const HELP = `Usage: skillshelf match "<message>" [options]

Stage-1 candidates for a message: scores, the reasons behind each, vetoes, ambiguity,
and the near-misses with why each is not a candidate.

Options:
  --limit N          candidates to show (default 5)
  --near-misses N    near-misses to show (default 3; 0 for none)
  --include-hidden   also consider disable-model-invocation skills
  --json             print the match result as JSON
${SHELF_HELP}
  -h, --help         show this help

Exit status: 0 (also when no skill applies), 2 on bad usage.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("match", args, ctx, parse, HELP, {
    ok: (n) => n === 1,
    usage: "give exactly one message (quote it)",
  });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const limit = values.limit === undefined ? 5 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    ctx.err(`skillshelf match: --limit must be a positive whole number, got "${values.limit}"\n`);
    return 2;
  }
  const nearMisses = values["near-misses"] === undefined ? 3 : Number(values["near-misses"]);
  if (!Number.isInteger(nearMisses) || nearMisses < 0) {
    ctx.err(`skillshelf match: --near-misses must be a whole number, got "${values["near-misses"]}"\n`);
    return 2;
  }
  const shelf = await openShelf(values, ctx);
  if (typeof shelf === "string") {
    ctx.err(`skillshelf match: ${shelf}\n`);
    return 2;
  }
  try {
    const message = positionals[0] as string;
    const result = shelf.match(message, {
      limit,
      nearMisses,
      includeHidden: values["include-hidden"] ?? false,
    });
    ctx.out(values.json ? `${JSON.stringify(result, null, 2)}\n` : human(result, shelf.skills().length, ctx));
    return 0;
  } finally {
    await shelf.close();
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      limit: { type: "string" },
      "near-misses": { type: "string" },
      "include-hidden": { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      ...SHELF_OPTIONS,
    },
  });
}

export function describeReason(reason: MatchReason): string {
  switch (reason.kind) {
    case "trigger":
      return `trigger "${reason.trigger}" matched "${reason.matched}"`;
    case "name":
      return `names the skill ("${reason.matched}")`;
    case "example":
      return `like example "${reason.example}" (${reason.score.toFixed(2)})`;
    case "lexical":
      return `words: ${reason.terms.join(", ")} (${reason.score.toFixed(2)})`;
    case "semantic":
      return `semantic ${reason.score.toFixed(2)}`;
    case "usage":
      return `tie broken by use (${reason.count}×${reason.lastUsed ? `, last ${reason.lastUsed}` : ""})`;
  }
}

/** Why a near-miss is not a candidate, in the words of its reason. */
export function describeRejection(miss: Rejected): string {
  const words = miss.terms.length > 0 ? ` (${miss.terms.join(", ")})` : "";
  switch (miss.reason) {
    case "generic-words":
      return `only generic words matched${words}`;
    case "unfamiliar-request":
      return `most of the request is in words the shelf does not use${words}`;
    case "lone-word":
      return `one word matched, and the request's other words point elsewhere${words}`;
    case "unpaired-words":
      return `no two of its matched words stand together in its texts${words}`;
    case "below-threshold":
      return `below the threshold${words}`;
  }
}

function line(candidate: Candidate, rank: number, width: number, ctx: CommandContext): string {
  const reasons = candidate.reasons.map(describeReason).join("; ");
  return `${String(rank).padStart(2)}. ${ctx.color.bold(padEndColumns(candidate.name, width))}  ${candidate.score.toFixed(3)}  ${ctx.color.dim(reasons)}`;
}

function human(result: MatchResult, skills: number, ctx: CommandContext): string {
  const out: string[] = [];
  if (result.candidates.length === 0) {
    out.push(`No candidate: no skill of ${skills} applies to this message.`);
  } else {
    const width = columnWidth(result.candidates.map((c) => c.name));
    result.candidates.forEach((c, i) => {
      out.push(line(c, i + 1, width, ctx));
    });
  }
  for (const v of result.vetoed) {
    out.push(ctx.color.yellow(`vetoed: ${v.name} — exclusion "${v.exclusion}" matched "${v.matched}"`));
  }
  for (const miss of result.rejected ?? []) {
    out.push(
      ctx.color.dim(`not a candidate: ${miss.name} ${miss.score.toFixed(3)} — ${describeRejection(miss)}`),
    );
  }
  if (result.ambiguous) {
    out.push(
      ctx.color.yellow("ambiguous: the top two are too close to call; a host may ask the user which one."),
    );
  }
  return `${out.join("\n")}\n`;
}
