/**
 * `skillshelf update [name…] [--dry-run] [--force] [--root DIR | --user] [--json]`: fetches
 * installed skills again from the source in the lock file, shows what changes and installs
 * it through history, so an update can be rolled back. A skill edited by hand since it was
 * installed is not overwritten without `--force`; its edited content is kept in history
 * either way. All or nothing, as `add`.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkName, normalizeName } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, plural } from "./format-diagnostics.js";
import { type Baseline, recordBaselines } from "./install-history.js";
import { INSTALL_HELP, type InstallScope, installScope } from "./install-scope.js";
import { compareFiles, type FileChanges, hashFolder, noChanges } from "./installed-changes.js";
import { InstallRefused } from "./skill-copy.js";
import { skillDiff } from "./skill-diff.js";
import {
  describeSource,
  discard,
  findSkillAt,
  lockEntry,
  type StagedSkill,
  stageAll,
  swapIn,
} from "./skill-install.js";
import { type OpenedSource, openSource, SourceError } from "./skill-source.js";
import { type InstalledSkill, LockFileError, readSkillsLock, updateSkillsLock } from "./skills-lock.js";

export const HELP = `Usage: skillshelf update [name…] [--dry-run] [--force] [--root DIR | --user] [--json]

Fetches the named skills (default: every skill in the lock file) again from the source
'skillshelf add' recorded (the same branch or tag, the same npm range), shows which files
change and the SKILL.md diff, and installs the new content. The content it replaces is
kept in history, so 'skillshelf rollback <name> ~1' undoes an update.

A skill whose files you edited since it was installed is not overwritten: nothing is
updated unless you give --force. Your edited SKILL.md is kept in history either way.

Options:
  --dry-run        show what would change; change nothing
  --force          overwrite skills edited since they were installed
${INSTALL_HELP}
  --json           print what changed
  -h, --help       show this help

Exit status: 0 when updated (or already up to date), 1 when refused (a local edit, a
source that no longer has the skill, git or npm failed), 2 on bad usage.
`;

interface Plan {
  name: string;
  entry: InstalledSkill;
  source: OpenedSource;
  staged: StagedSkill;
  /** The new copy compared with what was installed. */
  upstream: FileChanges;
  /** The installed folder now compared with what was installed. */
  local: FileChanges;
  diff: string;
}

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("update", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const where = installScope(values, ctx);
  const names = parsed.positionals.map(normalizeName);
  const badName = names.map((n) => checkName(n)[0]?.message).find(Boolean);
  if (typeof where === "string" || badName) {
    ctx.err(`skillshelf update: ${typeof where === "string" ? where : badName}\n\n${HELP}`);
    return 2;
  }
  const fail = (message: string) => {
    ctx.err(`skillshelf update: ${message}\n`);
    return 1;
  };

  const opened = new Map<string, OpenedSource>();
  const plans: Plan[] = [];
  try {
    // Fetched before the lock file is held: a slow clone does not block another add.
    const lock = await readSkillsLock(where.lockFile);
    const wanted = names.length > 0 ? names : Object.keys(lock.skills).sort();
    const unknown = wanted.filter((n) => !Object.hasOwn(lock.skills, n));
    if (unknown.length > 0) {
      return fail(
        `${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not in ${displayPath(where.lockFile, ctx)} (not installed by 'skillshelf add'); nothing was updated`,
      );
    }
    // A lock file is often committed: a key that is not a plain name must never become a path.
    const unsafe = wanted.find((n) => normalizeName(n) !== n || checkName(n).length > 0);
    if (unsafe !== undefined) {
      return fail(
        `${displayPath(where.lockFile, ctx)} lists ${JSON.stringify(unsafe)}, which is not a skill name; nothing was updated`,
      );
    }
    if (wanted.length === 0) {
      ctx.out(`No skill in ${displayPath(where.lockFile, ctx)}: nothing to update\n`);
      return 0;
    }
    for (const name of wanted) {
      const planned = await plan(name, lock.skills[name]!, where, opened, ctx);
      if (typeof planned === "string") {
        await discard(plans.map((p) => p.staged));
        return fail(`${name}: ${planned}; nothing was updated`);
      }
      plans.push(planned);
    }

    // Identical files at a newer commit or version are up to date: the lock keeps the commit it
    // installed from, whose content is the same.
    const changing = plans.filter((p) => !noChanges(p.upstream));
    const edited = plans.filter((p) => !noChanges(p.local));
    const refused = edited.length > 0 && !values.force && changing.some((p) => edited.includes(p));
    if (values["dry-run"] || refused || changing.length === 0) {
      await discard(plans.map((p) => p.staged));
      if (refused && !values["dry-run"]) {
        // The hand edit is history now, whatever happens next (a dry run writes nothing).
        await recordBaselines(where.stateDir, await localEditBaselines(edited, where));
      }
      report(
        plans,
        changing,
        { applied: false, refused, dryRun: Boolean(values["dry-run"]) },
        values.json,
        ctx,
      );
      return refused ? 1 : 0;
    }

    const installedAt = new Date().toISOString();
    await discard(plans.filter((p) => !changing.includes(p)).map((p) => p.staged));
    await updateSkillsLock(where.lockFile, async (current) => {
      const baselines: Baseline[] = [];
      for (const p of changing) {
        // Another process may have removed or replaced it since it was planned.
        if (current.skills[p.name]?.installedAt !== p.entry.installedAt) {
          throw new InstallRefused(`${p.name} changed in the lock file while it was fetched; try again`);
        }
      }
      for (const p of changing) {
        const dest = path.join(where.skillsDir, p.name);
        const replaced = await swapIn(p.staged.staged, dest);
        baselines.push({
          name: p.name,
          ...(replaced && { replaced }),
          replacedNote: "the content before skillshelf update replaced it",
          installed: await fs.readFile(path.join(dest, "SKILL.md")),
          note: `updated by skillshelf update from ${describeSource(p.source)}`,
        });
        current.skills[p.name] = lockEntry(p.source, p.staged, installedAt);
      }
      await recordBaselines(where.stateDir, baselines);
      return { lock: current, result: undefined };
    });
    report(plans, changing, { applied: true, refused: false, dryRun: false }, values.json, ctx);
    return 0;
  } catch (error) {
    await discard(plans.map((p) => p.staged)).catch(() => undefined);
    if (error instanceof SourceError || error instanceof LockFileError || error instanceof InstallRefused) {
      return fail(error.message);
    }
    throw error;
  } finally {
    for (const source of opened.values()) await source.close();
  }
}

async function plan(
  name: string,
  entry: InstalledSkill,
  where: InstallScope,
  opened: Map<string, OpenedSource>,
  ctx: CommandContext,
): Promise<Plan | string> {
  const spec = entry.ref !== undefined ? `${entry.source}#${entry.ref}` : entry.source;
  let source = opened.get(spec);
  if (!source) {
    // "." : the skill's recorded path is from the source's root, whatever the package now says.
    source = await openSource(spec, { cwd: ctx.cwd, env: ctx.env, subfolder: "." });
    opened.set(spec, source);
  }
  const found = await findSkillAt(source, entry.path, name);
  if (typeof found === "string") return found;
  const [staged] = await stageAll([found], where.skillsDir);
  const dest = path.join(where.skillsDir, name);
  const before = await fs.readFile(path.join(dest, "SKILL.md"), "utf8").catch(() => "");
  const after = await fs.readFile(path.join(staged!.staged, "SKILL.md"), "utf8");
  return {
    name,
    entry,
    source,
    staged: staged!,
    upstream: compareFiles(entry.files, staged!.copied.files),
    local: compareFiles(entry.files, await hashFolder(dest)),
    diff: skillDiff(name, before, after),
  };
}

async function localEditBaselines(edited: readonly Plan[], where: InstallScope): Promise<Baseline[]> {
  const baselines: Baseline[] = [];
  for (const p of edited) {
    const content = await fs.readFile(path.join(where.skillsDir, p.name, "SKILL.md")).catch(() => undefined);
    if (content) {
      baselines.push({
        name: p.name,
        replaced: content,
        replacedNote: "a local edit skillshelf update did not overwrite",
        note: "",
      });
    }
  }
  return baselines;
}

function report(
  plans: readonly Plan[],
  changing: readonly Plan[],
  how: { applied: boolean; refused: boolean; dryRun: boolean },
  json: boolean | undefined,
  ctx: CommandContext,
): void {
  if (json) {
    const skills = plans.map((p) => ({
      name: p.name,
      source: p.entry.source,
      from: { commit: p.entry.commit ?? null, version: p.entry.version ?? null },
      to: { commit: p.source.commit ?? null, version: p.source.version ?? null },
      changes: p.upstream,
      localEdits: p.local,
      status: !changing.includes(p)
        ? "up-to-date"
        : how.applied
          ? "updated"
          : how.refused
            ? "refused"
            : "would-update",
    }));
    (how.refused ? ctx.err : ctx.out)(`${JSON.stringify({ applied: how.applied, skills }, null, 2)}\n`);
    return;
  }
  const c = ctx.color;
  const lines: string[] = [];
  for (const p of plans) {
    if (!changing.includes(p)) {
      lines.push(`${c.dim("=")} ${p.name}  up to date${revision(p.entry.commit, p.entry.version)}`);
      continue;
    }
    const mark = how.applied ? c.green("✔") : c.yellow("~");
    lines.push(
      `${mark} ${c.bold(p.name)}  ${revision(p.entry.commit, p.entry.version).trim() || "installed"} → ${revision(p.source.commit, p.source.version).trim() || "source now"}`,
    );
    for (const [label, files] of [
      ["changed", p.upstream.changed],
      ["added", p.upstream.added],
      ["removed", p.upstream.removed],
    ] as const) {
      if (files.length > 0) lines.push(`    ${label}: ${files.join(", ")}`);
    }
    if (!noChanges(p.local)) {
      const edits = [...p.local.changed, ...p.local.added, ...p.local.removed];
      lines.push(`    ${c.yellow("edited here since it was installed:")} ${edits.join(", ")}`);
    }
    if (p.diff) lines.push(indent(p.diff, c));
  }
  const count = plural(changing.length, "skill");
  const summary = how.applied
    ? `${count} updated; the replaced content is in history ('skillshelf rollback <name> ~1' undoes it)`
    : how.refused
      ? `nothing was updated: a skill was edited here since it was installed (--force overwrites it; the edit is kept in history)`
      : changing.length === 0
        ? "everything is up to date"
        : `${count} would be updated (run without --dry-run to update)`;
  (how.refused ? ctx.err : ctx.out)(
    `${lines.join("\n")}\n${how.refused ? `skillshelf update: ${summary}` : summary}\n`,
  );
}

function revision(commit: string | undefined, version: string | undefined): string {
  if (commit) return ` ${commit.slice(0, 12)}`;
  if (version) return ` ${version}`;
  return "";
}

function indent(diff: string, c: CommandContext["color"]): string {
  return diff
    .trimEnd()
    .split("\n")
    .map((line) => {
      const painted = line.startsWith("+")
        ? c.green(line)
        : line.startsWith("-")
          ? c.red(line)
          : line.startsWith("@@")
            ? c.cyan(line)
            : line;
      return `    ${painted}`;
    })
    .join("\n");
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      root: { type: "string" },
      user: { type: "boolean" },
      "state-dir": { type: "string" },
      "dry-run": { type: "boolean" },
      force: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
