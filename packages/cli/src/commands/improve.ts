/**
 * `skillshelf improve list|show|accept|reject`: the user's side of the improvement loop.
 *
 * The CLI never calls a model. Proposals carry exact before → after edits; `accept`
 * applies them as written (what `show` displays is what gets written), through the same
 * guards and managed write as an app would. A proposal whose edits do not apply as written
 * needs a model merge, which only an app with a `generate` function can do — the CLI says
 * so rather than guess.
 */
import { parseArgs } from "node:util";
import type { ImprovementProposal, Preview, ProposalStatus, Shelf } from "@skillshelf/core";
import type { CommandContext } from "../context.js";
import { columnWidth, padEndColumns } from "../text-width.js";
import { colorDiff, formatTime, VERSIONED_HELP, VERSIONED_OPTIONS, withShelf } from "./versioned-shelf.js";

export const HELP = `Usage: skillshelf improve <command> [options]

Commands:
  list [--skill NAME] [--status S]   proposals, newest first (S: pending (default),
                                     accepted, rejected, all)
  show <id>                          rationale, evidence, the exact change, guard check
  accept <id>                        write the change (a managed write: version bumped,
                                     the old version kept — undo with 'skillshelf rollback')
  reject <id> <reason…>              record why; later analyses are shown the reason and
                                     do not propose the idea again

<id> is a proposal id from 'list', or a unique part of its start or end.

The CLI never calls a model. 'accept' applies the proposal's edits exactly as 'show'
displays them. A proposal whose edits no longer apply as written (the skill changed, or
the model misquoted it) needs a model merge: accept it from your app with
shelf.improvements.accept(id, { generate }), or reject it and edit the skill by hand.

Options:
  --json             print JSON (list, show)
${VERSIONED_HELP}
  -h, --help         show this help

Exit status: 0; 1 when refused (unknown id, not pending, stale, guard failed, needs a
model); 2 on bad usage.
`;

const STATUSES = ["pending", "accepted", "rejected", "all"] as const;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    ctx.err(`skillshelf improve: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === "help") {
    ctx.out(HELP);
    return 0;
  }
  const usage = (message: string) => {
    ctx.err(`skillshelf improve: ${message}\n\n${HELP}`);
    return 2;
  };
  const status = values.status ?? "pending";
  if (!(STATUSES as readonly string[]).includes(status))
    return usage(`--status must be one of ${STATUSES.join(", ")}`);

  switch (command) {
    case "list":
      if (rest.length > 0) return usage("list takes no arguments (use --skill NAME)");
      return withShelf("improve", values, ctx, (shelf) =>
        list(shelf, values.skill, status as ProposalStatus | "all", values.json, ctx),
      );
    case "show":
      if (rest.length !== 1) return usage("show takes one proposal id");
      return withShelf("improve", values, ctx, (shelf) => show(shelf, rest[0]!, values.json, ctx));
    case "accept":
      if (rest.length !== 1) return usage("accept takes one proposal id");
      return withShelf("improve", values, ctx, (shelf) => accept(shelf, rest[0]!, ctx));
    case "reject": {
      const reason = rest.slice(1).join(" ").trim();
      if (rest.length < 1) return usage("reject takes a proposal id and a reason");
      if (reason === "") {
        return usage(
          "give a reason after the id (it is shown to later analyses, so the same idea is not proposed again)",
        );
      }
      return withShelf("improve", values, ctx, (shelf) => reject(shelf, rest[0]!, reason, ctx));
    }
    case undefined:
      return usage("give a command: list, show, accept or reject");
    default:
      return usage(`unknown command '${command}'`);
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      skill: { type: "string" },
      status: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      ...VERSIONED_OPTIONS,
    },
  });
}

async function list(
  shelf: Shelf,
  skill: string | undefined,
  status: ProposalStatus | "all",
  json: boolean | undefined,
  ctx: CommandContext,
): Promise<number> {
  const proposals = await shelf.improvements.list({
    ...(skill ? { skill } : {}),
    ...(status === "all" ? {} : { status }),
  });
  if (json) {
    ctx.out(`${JSON.stringify(proposals, null, 2)}\n`);
    return 0;
  }
  const c = ctx.color;
  if (proposals.length === 0) {
    ctx.out(`No ${status === "all" ? "" : `${status} `}proposals${skill ? ` for ${skill}` : ""}.\n`);
    return 0;
  }
  const current = new Map(shelf.skills().map((s) => [s.name, s.hash]));
  const rows = proposals.map((p) => ({
    id: p.id,
    skill: p.skill,
    status: p.status,
    created: formatTime(p.createdAt),
    change: p.change,
    title:
      p.title +
      (p.status === "pending" && current.get(p.skill) !== p.baseHash
        ? c.yellow(" [skill changed since]")
        : "") +
      (p.status === "pending" && !p.applicable ? c.yellow(" [needs a model merge]") : ""),
  }));
  const w = (key: "id" | "skill" | "status" | "created" | "change", title: string) =>
    columnWidth(
      rows.map((r) => r[key]),
      title.length,
    );
  const widths = {
    id: w("id", "ID"),
    skill: w("skill", "SKILL"),
    status: w("status", "STATUS"),
    created: w("created", "CREATED (UTC)"),
    change: w("change", "CHANGE"),
  };
  const lines = [
    c.dim(
      `${padEndColumns("ID", widths.id)}  ${padEndColumns("SKILL", widths.skill)}  ${padEndColumns("STATUS", widths.status)}  ${padEndColumns("CREATED (UTC)", widths.created)}  ${padEndColumns("CHANGE", widths.change)}  TITLE`,
    ),
    ...rows.map(
      (r) =>
        `${padEndColumns(r.id, widths.id)}  ${c.bold(padEndColumns(r.skill, widths.skill))}  ${padEndColumns(r.status, widths.status)}  ${padEndColumns(r.created, widths.created)}  ${padEndColumns(r.change, widths.change)}  ${r.title}`,
    ),
  ];
  ctx.out(`${lines.join("\n")}\n`);
  return 0;
}

async function show(
  shelf: Shelf,
  id: string,
  json: boolean | undefined,
  ctx: CommandContext,
): Promise<number> {
  const proposal = await shelf.improvements.get(id);
  const preview: Preview | undefined =
    proposal.status === "pending" ? await shelf.improvements.preview(proposal.id) : undefined;
  if (json) {
    ctx.out(`${JSON.stringify(preview ?? { proposal }, null, 2)}\n`);
    return 0;
  }
  ctx.out(describe(proposal, preview, ctx));
  return 0;
}

function describe(p: ImprovementProposal, preview: Preview | undefined, ctx: CommandContext): string {
  const c = ctx.color;
  const lines: string[] = [];
  lines.push(
    `${c.bold(`Proposal ${p.id}`)} — ${p.status}${p.decidedAt ? ` ${formatTime(p.decidedAt)}` : ""}`,
  );
  lines.push(
    `${c.dim("Skill:    ")} ${p.skill} (made against sha256 ${p.baseHash.slice(0, 12)}…${p.baseVersion ? `, version ${p.baseVersion}` : ""})`,
  );
  lines.push(
    `${c.dim("Change:   ")} ${p.change} ${p.target}: ${p.title}${p.changesDescription ? c.yellow(" (changes the description)") : ""}`,
  );
  lines.push(`${c.dim("Rationale:")} ${p.rationale}`);
  const feedback = p.outcome.feedback ? ` — "${p.outcome.feedback}"` : "";
  lines.push(`${c.dim("Evidence: ")} from a run that ended: ${p.outcome.status}${feedback}`);
  for (const quote of p.evidence) lines.push(`   > ${quote.replace(/\n/g, "\n   > ")}`);
  if (p.reason) lines.push(`${c.dim("Rejected: ")} ${p.reason}`);
  if (p.result) {
    lines.push(
      `${c.dim("Written:  ")} version ${p.result.version ?? "-"} (${p.result.versionId}), merged by ${p.result.mergedBy}${p.result.rebased ? ", re-based" : ""}`,
    );
  }
  if (preview) {
    const r = preview.record;
    lines.push(
      `${c.dim("Record:   ")} ${r.positive} run(s) went well (${r.positiveOnCurrent} on the current version), ${r.problems} analysed with problems; ${r.accepted} accepted, ${r.rejected} rejected`,
    );
    if (preview.stale)
      lines.push(
        c.yellow(
          "The skill changed since this proposal was made; accepting re-bases it where its target text still applies.",
        ),
      );
    if (preview.applicable && preview.diff) {
      lines.push(
        "",
        c.dim("Accepting writes exactly this (plus the version bump):"),
        colorDiff(preview.diff.replace(/^=+\n/, ""), ctx).trimEnd(),
      );
      const check = preview.check!;
      const stats = check.stats;
      const size = stats
        ? `body ${stats.growthTokens >= 0 ? "+" : ""}${stats.growthTokens} tokens (limit +${stats.allowedGrowthTokens}), ${stats.changedLines} line(s) added or removed`
        : "";
      lines.push(
        "",
        check.ok
          ? `${c.green("Guards: ok")} — ${size}`
          : `${c.red("Guards: refused")} — ${check.violations.map((v) => `${v.guard}: ${v.message}`).join("; ")}`,
      );
    } else {
      lines.push(
        "",
        c.yellow(
          `Its edits do not apply to the current file as written, so accepting needs a model merge: accept it from your app with shelf.improvements.accept("${p.id}", { generate }), or reject it and edit by hand. The intended edits:`,
        ),
      );
      for (const edit of p.edits) {
        lines.push(c.red(edit.before.replace(/^/gm, "- ")), c.green(edit.after.replace(/^/gm, "+ ")));
      }
    }
    for (const flag of preview.flags) lines.push(c.yellow(`warning: ${flag}`));
    lines.push(
      "",
      c.dim(`Accept: skillshelf improve accept ${p.id}   Reject: skillshelf improve reject ${p.id} <reason>`),
    );
  }
  return `${lines.join("\n")}\n`;
}

async function accept(shelf: Shelf, id: string, ctx: CommandContext): Promise<number> {
  const result = await shelf.improvements.accept(id, { merge: "edits" });
  const c = ctx.color;
  const p = result.proposal;
  if (!result.write) {
    ctx.out(`${c.bold(p.skill)}: proposal ${p.id} was already in the file; marked accepted\n`);
    return 0;
  }
  ctx.out(
    `${c.bold(p.skill)}: accepted ${p.id} as version ${result.write.version ?? "(unversioned)"}${result.rebased ? " (re-based onto the current version)" : ""}\n`,
  );
  for (const note of result.write.notes) ctx.out(`  note: ${note}\n`);
  for (const flag of result.flags) ctx.out(c.yellow(`warning: ${flag}\n`));
  ctx.out(c.dim(`Undo: skillshelf rollback ${p.skill} ~1\n`));
  return 0;
}

async function reject(shelf: Shelf, id: string, reason: string, ctx: CommandContext): Promise<number> {
  const p = await shelf.improvements.reject(id, reason);
  ctx.out(
    `${ctx.color.bold(p.skill)}: rejected ${p.id} — later analyses are told why, and will not propose it again\n`,
  );
  return 0;
}
