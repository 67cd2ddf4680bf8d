/**
 * `skillshelf trust [path]`: record that the user trusts a project's skill folders, as they
 * are now (content hashes, whitelist, triggers, scripts), in the user's own trust file —
 * never in the repository. `--list` shows each project skill's state; `--revoke` forgets.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import {
  builtinRoleSkills,
  defaultTrustFile,
  loadSkills,
  readTrustFile,
  revokeSkillFolders,
  type TrustState,
  trustSkillFolders,
  trustStates,
} from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, plural } from "./format-diagnostics.js";

export const HELP = `Usage: skillshelf trust [path] [--list] [--revoke] [--trust-file FILE] [--json]

Trusts the project skills at path: a skill folder (holding SKILL.md) or a folder of skill
folders. Default: the project skill folders of the current folder (.skillshelf/skills,
.agents/skills). A shelf with the trust gate on (createShelf({ trust: true })) offers a
project skill to the model only once its folder is trusted; an edit that widens what it can
do (allowed-tools, disallowed-tools, disable-model-invocation, triggers, scripts/) needs a
new trust. Read the skill's SKILL.md and scripts/ before you trust it.

Options:
  --list             show the trust state of the project skills, change nothing
  --revoke           forget the trust of the folders at path
  --trust-file FILE  the trust file (default: ~/.skillshelf/trust.json)
  --json             print the result as JSON
  -h, --help         show this help

Exit status: 0 on success, 1 when no skill folder was found or the trust file could not be
written, 2 on bad usage.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("trust", args, ctx, parse, HELP, {
    ok: (n) => n <= 1,
    usage: "give at most one path",
  });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const file = values["trust-file"]
    ? path.resolve(ctx.cwd, values["trust-file"])
    : defaultTrustFile(ctx.env.HOME);
  const c = ctx.color;

  if (values.list) return list(ctx, file, values.json === true);

  const targets = positionals[0]
    ? [path.resolve(ctx.cwd, positionals[0])]
    : [".skillshelf/skills", ".agents/skills"].map((dir) => path.join(ctx.cwd, dir));
  try {
    if (values.revoke) {
      const removed = (
        await Promise.all(targets.map((t) => revokeSkillFolders(t, { file }).catch(() => [])))
      ).flat();
      if (values.json) ctx.out(`${JSON.stringify({ file, revoked: removed }, null, 2)}\n`);
      else {
        for (const folder of removed)
          ctx.out(`${c.yellow("✖")} no longer trusted: ${displayPath(folder, ctx)}\n`);
        ctx.out(`${plural(removed.length, "folder")} revoked in ${displayPath(file, ctx)}\n`);
      }
      return 0;
    }
    const trusted = (
      await Promise.all(
        targets.map((t) =>
          trustSkillFolders(t, { file }).catch((error: NodeJS.ErrnoException) => {
            // A default folder that does not exist is simply not there; anything else is a failure.
            if (error.code === "ENOENT" && !positionals[0]) return [];
            throw error;
          }),
        ),
      )
    ).flat();
    if (values.json) {
      ctx.out(
        `${JSON.stringify(
          {
            file,
            trusted: trusted.map((t) => ({
              folder: t.folder,
              name: t.name,
              allowedTools: t.record.policy.allowedTools,
              scripts: t.scripts,
            })),
          },
          null,
          2,
        )}\n`,
      );
    } else {
      for (const t of trusted) {
        const tools = t.record.policy.allowedTools;
        ctx.out(`${c.green("✔")} ${c.bold(t.name)}  ${displayPath(t.folder, ctx)}\n`);
        ctx.out(
          c.dim(`    allowed-tools: ${tools === null ? "(every tool)" : tools.join(" ") || "(none)"}\n`),
        );
        if (t.scripts.length > 0) ctx.out(c.dim(`    scripts: ${t.scripts.join(", ")}\n`));
      }
      ctx.out(
        trusted.length > 0
          ? `${plural(trusted.length, "skill folder")} trusted in ${displayPath(file, ctx)}\n`
          : `${c.red("✖")} no skill folder found at ${targets.map((t) => displayPath(t, ctx)).join(", ")}\n`,
      );
    }
    return trusted.length > 0 ? 0 : 1;
  } catch (error) {
    ctx.err(`skillshelf trust: ${(error as Error).message}\n`);
    return 1;
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      list: { type: "boolean" },
      revoke: { type: "boolean" },
      "trust-file": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** How a trust state reads in a listing. */
export function trustLabel(state: TrustState | undefined): string {
  if (!state) return "";
  return state.status === "needs-retrust" ? "needs re-trust" : state.status;
}

async function list(ctx: CommandContext, file: string, json: boolean): Promise<number> {
  const loaded = await loadSkills({
    root: ctx.cwd,
    userDirs: [],
    home: ctx.env.HOME,
    builtins: builtinRoleSkills(),
  });
  const { trust, problem } = await readTrustFile(file);
  const states = await trustStates(loaded.skills, trust);
  const rows = [...states].map(([skill, state]) => ({ name: skill.name, file: skill.file, ...state }));
  if (json) {
    ctx.out(`${JSON.stringify({ file, problem, skills: rows }, null, 2)}\n`);
    return 0;
  }
  if (problem) ctx.out(`${ctx.color.red("✖")} ${problem}: every project skill counts as untrusted\n`);
  for (const row of rows) {
    const label = trustLabel(row);
    const shown = row.status === "trusted" ? ctx.color.green(label) : ctx.color.yellow(label);
    ctx.out(`${ctx.color.bold(row.name)}  ${shown}  ${displayPath(row.file, ctx)}\n`);
    for (const change of row.changes) ctx.out(ctx.color.dim(`    ${change}\n`));
  }
  ctx.out(`${plural(rows.length, "project skill")} (trust file ${displayPath(file, ctx)})\n`);
  return 0;
}
