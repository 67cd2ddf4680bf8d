/**
 * `skillshelf history <name>`: the kept versions of a skill, newest (the current file)
 * first — id, version, when, what produced it (write, accepted proposal, rollback, a hand
 * edit), and its sha256.
 */
import { parseArgs } from "node:util";
import type { VersionInfo } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { columnWidth, padEndColumns } from "../text-width.js";
import { displayPath } from "./format-diagnostics.js";
import { formatTime, VERSIONED_HELP, VERSIONED_OPTIONS, withShelf } from "./versioned-shelf.js";

export const HELP = `Usage: skillshelf history <name> [options]

The kept versions of a skill, newest first; the first is the current file. Refer to a
version by its id (or a unique prefix), by ~N (N versions back), by its version number,
or by a sha256 prefix — in 'skillshelf diff' and 'skillshelf rollback'.

Options:
  --json             print the versions as JSON
${VERSIONED_HELP}
  -h, --help         show this help

Exit status: 0; 1 when the skill is unknown or builtin; 2 on bad usage.
`;

const SOURCE: Record<string, string> = {
  write: "write",
  rollback: "rollback",
  accepted: "improvement",
  "external-edit": "hand edit",
  initial: "before first write",
};

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("history", args, ctx, parse, HELP, {
    ok: (n) => n === 1,
    usage: "give one skill name",
  });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const name = positionals[0]!;
  return withShelf("history", values, ctx, async (shelf) => {
    const versions = await shelf.history(name);
    if (values.json) {
      ctx.out(`${JSON.stringify({ name, file: shelf.get(name)?.file, versions }, null, 2)}\n`);
      return 0;
    }
    ctx.out(human(name, displayPath(shelf.get(name)?.file ?? "", ctx), versions, ctx));
    return 0;
  });
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" }, ...VERSIONED_OPTIONS },
  });
}

function human(name: string, file: string, versions: VersionInfo[], ctx: CommandContext): string {
  const c = ctx.color;
  const earlier = versions.filter((v) => !v.current).length;
  const lines = [`${c.bold(name)}  ${c.dim(file)}`];
  if (versions.every((v) => !v.recorded)) {
    lines.push(
      "",
      "No versions kept yet: history starts with the first managed write (shelf.write, an accepted",
    );
    lines.push("improvement, or a rollback).");
    return `${lines.join("\n")}\n`;
  }
  const rows = versions.map((v, i) => ({
    mark: v.current ? "*" : " ",
    ref: v.current ? "current" : `~${i}`,
    id: v.recorded ? v.id : "(not yet on record)",
    version: v.version ?? "-",
    when: formatTime(v.at),
    source: (v.source && SOURCE[v.source]) ?? v.source ?? "",
    hash: v.hash.slice(0, 8) + (v.intact ? "" : " DAMAGED"),
  }));
  const width = (key: keyof (typeof rows)[number], title: string) =>
    columnWidth(
      rows.map((r) => r[key]),
      title.length,
    );
  const w = {
    ref: width("ref", "REF"),
    id: width("id", "ID"),
    version: width("version", "VERSION"),
    when: width("when", "RECORDED (UTC)"),
    source: width("source", "SOURCE"),
  };
  lines.push(
    "",
    c.dim(
      `  ${padEndColumns("REF", w.ref)}  ${padEndColumns("ID", w.id)}  ${padEndColumns("VERSION", w.version)}  ${padEndColumns("RECORDED (UTC)", w.when)}  ${padEndColumns("SOURCE", w.source)}  SHA256`,
    ),
  );
  for (const r of rows) {
    const line = `${r.mark} ${padEndColumns(r.ref, w.ref)}  ${padEndColumns(r.id, w.id)}  ${padEndColumns(r.version, w.version)}  ${padEndColumns(r.when, w.when)}  ${padEndColumns(r.source, w.source)}  ${r.hash}`;
    lines.push(r.mark === "*" ? c.bold(line) : line);
  }
  lines.push(
    "",
    c.dim(
      `${earlier} earlier version${earlier === 1 ? "" : "s"} kept. Compare: skillshelf diff ${name} ~1   Restore: skillshelf rollback ${name} ~1`,
    ),
  );
  return `${lines.join("\n")}\n`;
}
