/**
 * `skillshelf eval <cases.jsonl>`: routing quality of this shelf on a file of cases —
 * recall@1/@3/@5 on the positives, the share of "nothing applies" cases left alone, and
 * what got confused with what. Cases are JSON lines (or one JSON array):
 * `{"message": "...", "expect": "<skill>" | ["<skill>", ...] | null}` or
 * `{"query": "...", "should_trigger": true|false}` (with `--skill` for one-skill files).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { evaluateRouting, parseRoutingCases, type RoutingReport } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { openShelf, parseScore, SHELF_HELP, SHELF_OPTIONS } from "./runtime-shelf.js";

export const HELP = `Usage: skillshelf eval <cases.jsonl> [options]

Routing quality on a cases file: recall@1/@3/@5 on positives, the share of "nothing
applies" cases with no candidate, and the most frequent confusions.

Cases (JSON lines, or one JSON array):
  {"message": "deploy the app", "expect": "deploy"}     a positive (or a list of names)
  {"message": "what is CI?", "expect": null}            nothing should apply
  {"query": "...", "should_trigger": true|false}        skill from "skill" or --skill

Options:
  --skill NAME       the skill {"query","should_trigger"} cases are about
  --fail-under X     exit 1 when recall@3 is below X (0..1), for CI
  --show N           confusions and misses to list (default 10)
  --json             print the full report as JSON
${SHELF_HELP}
  -h, --help         show this help

Exit status: 0, 1 under --fail-under, 2 on bad usage or an unreadable/invalid cases file.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("eval", args, ctx, parse, HELP, {
    ok: (n) => n === 1,
    usage: "give one cases file",
  });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const failUnder = parseScore(values["fail-under"], "--fail-under");
  const show = values.show === undefined ? 10 : Number(values.show);
  if (typeof failUnder === "string" || !Number.isInteger(show) || show < 0) {
    ctx.err(
      `skillshelf eval: ${typeof failUnder === "string" ? failUnder : `--show must be a whole number, got "${values.show}"`}\n`,
    );
    return 2;
  }

  const file = path.resolve(ctx.cwd, positionals[0] as string);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    ctx.err(`skillshelf eval: cannot read ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  const { cases, errors } = parseRoutingCases(text, values.skill);
  for (const e of errors) ctx.err(`${file}:${e.line}: ${e.message}\n`);
  // A skipped line is a case the scores silently leave out: fix the file first.
  if (errors.length > 0) {
    ctx.err(`skillshelf eval: ${errors.length} malformed line${errors.length === 1 ? "" : "s"} in ${file}\n`);
    return 2;
  }
  if (cases.length === 0) {
    ctx.err(`skillshelf eval: no usable case in ${file}\n`);
    return 2;
  }

  const shelf = await openShelf(values, ctx);
  if (typeof shelf === "string") {
    ctx.err(`skillshelf eval: ${shelf}\n`);
    return 2;
  }
  let report: RoutingReport;
  try {
    const known = new Set(shelf.skills().map((s) => s.name));
    const unknown = [
      ...new Set(cases.flatMap((c) => [...(c.expect ?? []), ...(c.notExpect ? [c.notExpect] : [])])),
    ].filter((n) => !known.has(n));
    if (unknown.length > 0)
      ctx.err(
        ctx.color.yellow(`warning: cases name skills this shelf does not have: ${unknown.join(", ")}\n`),
      );
    report = evaluateRouting(cases, (message) => shelf.match(message, { limit: 5 }));
  } finally {
    await shelf.close();
  }

  ctx.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : human(report, show, ctx));
  if (failUnder !== undefined && report.positives > 0 && report.recallAt3 < failUnder) {
    ctx.err(`skillshelf eval: recall@3 ${pct(report.recallAt3)} is under ${pct(failUnder)}\n`);
    return 1;
  }
  return 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      skill: { type: "string" },
      "fail-under": { type: "string" },
      show: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      ...SHELF_OPTIONS,
    },
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function human(r: RoutingReport, show: number, ctx: CommandContext): string {
  const out: string[] = [`${r.cases} cases`];
  if (r.positives > 0) {
    out.push(
      `positives: ${r.positives}  recall@1 ${pct(r.recallAt1)}  recall@3 ${pct(r.recallAt3)}  recall@5 ${pct(r.recallAt5)}`,
    );
  }
  if (r.none.cases > 0) {
    out.push(`nothing applies: ${r.none.cases}  left alone ${r.none.correct} (${pct(r.none.accuracy)})`);
  }
  if (r.notTriggered.cases > 0) {
    out.push(
      `should not trigger: ${r.notTriggered.cases}  not triggered ${r.notTriggered.correct} (${pct(r.notTriggered.accuracy)})`,
    );
  }
  if (r.ambiguous > 0) out.push(`ambiguous results: ${r.ambiguous}`);
  if (show > 0 && r.confusions.length > 0) {
    out.push("", ctx.color.bold("confusions (expected → ranked first):"));
    for (const c of r.confusions.slice(0, show))
      out.push(`  ${c.count}×  ${c.expected ?? "(nothing)"} → ${c.got}`);
  }
  if (show > 0 && r.misses.length > 0) {
    out.push("", ctx.color.bold(`misses (expected skill not in the top 5): ${r.misses.length}`));
    for (const m of r.misses.slice(0, show)) {
      const got = m.got.length > 0 ? m.got.join(", ") : "no candidate";
      out.push(
        `  ${m.id ? `${m.id}: ` : ""}${JSON.stringify(m.message.slice(0, 100))}  expected ${m.expected.join(" | ")}, got ${got}`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}
