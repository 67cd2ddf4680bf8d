/**
 * `skillshelf disable <name…>` and `skillshelf enable <name…>`: turn skills off and on
 * without deleting them, through the `disabled` list of `<root>/.skillshelf/config.json`.
 * A running shelf picks the change up at its next refresh. The file is changed under an
 * exclusive lock and lands by rename; its other keys are kept, and a file that is not a
 * valid config is never overwritten.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { defaultConfigFile, loadSkills, normalizeName, parseShelfConfig } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, plural } from "./format-diagnostics.js";
import { firstNotFolder } from "./runtime-shelf.js";
import { acquire } from "./skills-lock.js";

const help = (command: "disable" | "enable") => `Usage: skillshelf ${command} <name…> [--root DIR] [--json]

${
  command === "disable"
    ? `Turns skills off without deleting them: they stay on disk and in 'skillshelf list'
(marked disabled), but a shelf never offers them and neither the model nor "/name" can
activate them.`
    : "Turns disabled skills back on."
} The list is "disabled" in <root>/.skillshelf/config.json; a running
agent sees the change at its next refresh.

Options:
  --root DIR   project root (default: the current folder)
  --json       print the disabled list after the change
  -h, --help   show this help

Exit status: 0, 1 when the config file cannot be read (it is not overwritten), 2 on bad usage.
`;

export const run = (args: string[], ctx: CommandContext) => change("disable", args, ctx);
export const runEnable = (args: string[], ctx: CommandContext) => change("enable", args, ctx);

async function change(command: "disable" | "enable", args: string[], ctx: CommandContext): Promise<number> {
  const HELP = help(command);
  const parsed = startCommand(command, args, ctx, parse, HELP, {
    ok: (n) => n > 0,
    usage: "give the name of at least one skill",
  });
  if (typeof parsed === "number") return parsed;
  const root = path.resolve(ctx.cwd, parsed.values.root ?? ".");
  const notFolder = parsed.values.root !== undefined ? firstNotFolder([["--root", root]]) : undefined;
  if (notFolder) {
    ctx.err(`skillshelf ${command}: ${notFolder}\n\n${HELP}`);
    return 2;
  }
  const names = parsed.positionals.map(normalizeName);
  const file = defaultConfigFile(root);
  const result = await updateConfig(file, (disabled) =>
    command === "disable"
      ? [...new Set([...disabled, ...names])].sort()
      : disabled.filter((name) => !names.includes(name)),
  );
  if (typeof result === "string") {
    ctx.err(`skillshelf ${command}: ${displayPath(file, ctx)} ${result}; it was not changed\n`);
    return 1;
  }
  if (parsed.values.json) {
    ctx.out(`${JSON.stringify({ file, disabled: result.after }, null, 2)}\n`);
    return 0;
  }
  const c = ctx.color;
  const changed = names.filter((n) => result.before.includes(n) !== result.after.includes(n));
  const unchanged = names.filter((n) => !changed.includes(n));
  if (changed.length > 0) {
    ctx.out(`${c.green("✔")} ${command}d ${changed.join(", ")} (${displayPath(file, ctx)})\n`);
  }
  if (unchanged.length > 0) {
    ctx.out(`${unchanged.join(", ")} ${unchanged.length === 1 ? "was" : "were"} already ${command}d\n`);
  }
  if (command === "disable") {
    // A typo would disable nothing: say so, but keep the entry (the skill may come later).
    const { skills } = await loadSkills({ root, home: ctx.env.HOME, builtins: [] });
    const known = new Set(skills.map((s) => s.name));
    const unknown = changed.filter((n) => !known.has(n));
    if (unknown.length > 0) {
      ctx.out(
        c.yellow(
          `no skill named ${unknown.join(", ")} is loaded here now; the entry is kept for when one is\n`,
        ),
      );
    }
  }
  ctx.out(c.dim(`${plural(result.after.length, "skill")} disabled\n`));
  return 0;
}

/** Rewrites the `disabled` list; the text of why not when the file cannot be read. */
async function updateConfig(
  file: string,
  next: (disabled: string[]) => string[],
): Promise<{ before: string[]; after: string[] } | string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const hold = `${file}.lock`;
  try {
    await acquire(hold);
  } catch (error) {
    return (error as Error).message;
  }
  try {
    let text: string | undefined;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        return `cannot be read (${(error as Error).message})`;
    }
    const read = text === undefined ? undefined : parseShelfConfig(text);
    if (read?.problem) return `is not usable (${read.problem})`;
    const json: Record<string, unknown> = text === undefined ? {} : JSON.parse(text);
    const before = read?.config.disabled ?? [];
    const after = next(before);
    const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify({ ...json, disabled: after }, null, 2)}\n`, { flag: "wx" });
    await fs.rename(temp, file);
    return { before, after };
  } finally {
    await fs.rm(hold, { force: true });
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      root: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
