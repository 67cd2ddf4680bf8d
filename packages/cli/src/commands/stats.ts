/**
 * `skillshelf stats`: what the event log says — which skills are used and by whom, which
 * went unused for N days (candidates for pruning, seed 001), and which tool calls the
 * whitelists blocked.
 */
import { type Stats, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  createShelf,
  EVENTS_FILE,
  type EventQuery,
  type EventSummary,
  matchesEventQuery,
  readEvents,
  summarizeEvents,
} from "@skillshelf/core";
import type { CommandContext } from "../context.js";
import { columnWidth, padEndColumns, padStartColumns } from "../text-width.js";
import { firstNotFolder } from "./runtime-shelf.js";

const HELP = `Usage: skillshelf stats [options]

Usage, zero-use skills and blocked tool calls, from the event log.

Options:
  --days <n>         zero-use window in days (default 30)
  --events <file>    event log (default <state-dir>/${EVENTS_FILE})
  --session <id>     only the events of this session (one model call)
  --thread <id>      only the events of this thread (a conversation, as the host named it)
  --run <id>         only the events of this run
  --root <dir>       project root (default: the current folder)
  --state-dir <dir>  skillshelf's state folder (default <root>/.skillshelf)
  --json             print the summary as JSON
  -h, --help         show this help
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  let values: {
    days?: string;
    events?: string;
    session?: string;
    thread?: string;
    run?: string;
    root?: string;
    "state-dir"?: string;
    json?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        days: { type: "string" },
        events: { type: "string" },
        session: { type: "string" },
        thread: { type: "string" },
        run: { type: "string" },
        root: { type: "string" },
        "state-dir": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    ctx.err(`skillshelf stats: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    ctx.out(HELP);
    return 0;
  }
  const days = values.days === undefined ? 30 : Number(values.days);
  if (!Number.isFinite(days) || days <= 0) {
    ctx.err(`skillshelf stats: --days must be a positive number, got "${values.days}"\n`);
    return 2;
  }
  const root = path.resolve(ctx.cwd, values.root ?? ".");
  const stateDir = path.resolve(root, values["state-dir"] ?? ".skillshelf");
  const file = values.events ? path.resolve(ctx.cwd, values.events) : path.join(stateDir, EVENTS_FILE);
  // Named on the command line, a path must be what it says: a typo must not read as "no events".
  const badPath =
    firstNotFolder(values.root !== undefined ? [["--root", root]] : []) ??
    (values.events !== undefined ? notAFile("--events", file) : undefined);
  if (badPath) {
    ctx.err(`skillshelf stats: ${badPath}\n`);
    return 2;
  }

  let log: Awaited<ReturnType<typeof readEvents>>;
  try {
    log = await readEvents(file);
  } catch (error) {
    ctx.err(`skillshelf stats: cannot read ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  if (log.invalidLines.length > 0) {
    const lines = log.invalidLines.slice(0, 10).join(", ");
    ctx.err(
      `skillshelf stats: skipped ${log.invalidLines.length} line(s) of ${file} that are not events (line ${lines}${
        log.invalidLines.length > 10 ? ", …" : ""
      })\n`,
    );
  }

  // The shelf's skills, so a skill the log never mentions still shows up as unused. Roles
  // are delegated to, not activated: they are left out of the zero-use list.
  const shelf = await createShelf({ root, stateDir, events: false });
  const skills = shelf
    .skills()
    .filter((s) => !s.role)
    .map((s) => s.name);
  await shelf.close();

  const query: EventQuery = {};
  if (values.session !== undefined) query.session = values.session;
  if (values.thread !== undefined) query.thread = values.thread;
  if (values.run !== undefined) query.run = values.run;
  const events = log.events.filter((event) => matchesEventQuery(event, query));
  const summary = summarizeEvents(events, { zeroUseDays: days, skills });
  if (values.json) {
    ctx.out(
      `${JSON.stringify({ file, filter: query, invalidLines: log.invalidLines, ...summary }, null, 2)}\n`,
    );
    return 0;
  }
  const shown = path.relative(ctx.cwd, file) || file;
  const filter = Object.entries(query).map(([key, value]) => `${key} ${value}`);
  ctx.out(render(summary, filter.length > 0 ? `${shown}, ${filter.join(", ")}` : shown, ctx));
  return 0;
}

function table(rows: string[][], align: ("left" | "right")[]): string[] {
  const widths = align.map((_, i) => columnWidth(rows.map((r) => r[i] ?? "")));
  return rows.map((r) =>
    r
      .map((cell, i) =>
        align[i] === "right" ? padStartColumns(cell, widths[i]!) : padEndColumns(cell, widths[i]!),
      )
      .join("  ")
      .trimEnd(),
  );
}

function counts(items: Array<{ count: number } & Record<string, unknown>>, key: string): string {
  return items.map((item) => `${String(item[key])} ${item.count}`).join(", ");
}

function render(summary: EventSummary, file: string, ctx: CommandContext): string {
  const { bold, dim, yellow } = ctx.color;
  const out: string[] = [];
  const span = summary.from ? ` (${summary.from.slice(0, 10)} → ${summary.to?.slice(0, 10)})` : "";
  out.push(`${bold("Events")}: ${summary.events}${span}  ${dim(file)}`);
  if (summary.events === 0)
    out.push(dim("No events yet: they are written as sessions plan turns and activate skills."));

  const used = summary.skills.filter((s) => s.activations + s.reads + s.offered + s.refusals > 0);
  if (used.length > 0) {
    out.push("", bold("Usage"));
    const rows = [
      ["skill", "activations", "model", "user", "code", "reads", "offered", "refused", "last used"],
      ...used.map((s) => [
        s.name,
        String(s.activations),
        String(s.byModel),
        String(s.byUser),
        String(s.byCode),
        String(s.reads),
        String(s.offered),
        String(s.refusals),
        s.lastUsed?.slice(0, 10) ?? "-",
      ]),
    ];
    const lines = table(rows, [
      "left",
      "right",
      "right",
      "right",
      "right",
      "right",
      "right",
      "right",
      "left",
    ]);
    out.push(`  ${dim(lines[0]!)}`, ...lines.slice(1).map((l) => `  ${l}`));
  }

  const { zeroUse } = summary;
  out.push(
    "",
    `${bold("Zero use")} in the last ${zeroUse.days} days (since ${zeroUse.since.slice(0, 10)}): ${zeroUse.skills.length}`,
  );
  if (zeroUse.skills.length > 0) {
    out.push(`  ${zeroUse.skills.join(", ")}`);
    out.push(dim("  Prune them, merge them, or sharpen their descriptions and triggers."));
  }

  out.push("", `${bold("Blocked tool calls")}: ${summary.blocked.total}`);
  if (summary.blocked.total > 0) {
    out.push(`  by tool:  ${yellow(counts(summary.blocked.byTool, "tool"))}`);
    out.push(`  by skill: ${counts(summary.blocked.bySkill, "skill")}`);
  }

  const refusals = Object.entries(summary.refusals.byType).map(([type, n]) => `${type} ${n}`);
  out.push(
    "",
    `${bold("Refused activations")}: ${summary.refusals.total}${refusals.length ? ` (${refusals.join(", ")})` : ""}`,
  );
  const roles = Object.entries(summary.delegations.byRole).map(([role, n]) => `${role} ${n}`);
  out.push(
    `${bold("Delegations")}: ${summary.delegations.total}${roles.length ? ` (${roles.join(", ")})` : ""}`,
  );
  return `${out.join("\n")}\n`;
}

function notAFile(flag: string, file: string): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    return `${flag} ${file} does not exist`;
  }
  return stats.isFile() ? undefined : `${flag} ${file} is not a file`;
}
