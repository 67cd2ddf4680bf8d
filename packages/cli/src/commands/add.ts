/**
 * `skillshelf add <source> [--root DIR | --user] [--force] [--json]`: installs the skills
 * in a local folder or local git repository into the project's (or the user's) skills,
 * records where they came from in the lock file and starts each one's history. All or
 * nothing: a source with a skill that does not load, or a name already installed (without
 * `--force`), installs none.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkName, readSkillFile } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, plural } from "./format-diagnostics.js";
import { recordBaselines } from "./install-history.js";
import { INSTALL_HELP, installScope } from "./install-scope.js";
import { type CopiedFolder, copySkillFolder, InstallRefused } from "./skill-copy.js";
import { type OpenedSource, openSource, SourceError } from "./skill-source.js";
import { type InstalledSkill, LockFileError, updateSkillsLock } from "./skills-lock.js";
import { collect } from "./validate.js";

export const HELP = `Usage: skillshelf add <source> [--root DIR | --user] [--force] [--json]

Installs every skill (a folder with a SKILL.md) found in <source>: a local folder, or a
local git repository, which is cloned with the machine's git (--depth 1) so that only
committed files are installed. Each skill is copied to <skills>/<name> (links are not
copied), recorded in the lock file (source, commit, sha256 of each file) and its history
starts with the installed content, so a later edit can be rolled back.

Project skills from elsewhere stay withheld by a shelf with the trust gate until you
trust them: read them, then run 'skillshelf trust'.

Options:
${INSTALL_HELP}
  --force          replace skills already installed under the same names (the replaced
                   SKILL.md is kept in history)
  --json           print what was installed
  -h, --help       show this help

Exit status: 0 when installed, 1 when refused (a name taken, a skill that does not load,
no skill found, git failed), 2 on bad usage.
`;

interface Found {
  name: string;
  /** Absolute folder in the (cloned) source. */
  dir: string;
  /** The folder inside the source, for the lock file. */
  rel: string;
}

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("add", args, ctx, parse, HELP, {
    ok: (n) => n === 1,
    usage: "give one source: a folder or a local git repository",
  });
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const where = installScope(values, ctx);
  if (typeof where === "string") {
    ctx.err(`skillshelf add: ${where}\n\n${HELP}`);
    return 2;
  }
  const fail = (message: string) => {
    ctx.err(`skillshelf add: ${message}\n`);
    return 1;
  };

  let source: OpenedSource;
  try {
    source = await openSource(parsed.positionals[0]!, ctx.cwd);
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    if (error.usage) {
      ctx.err(`skillshelf add: ${error.message}\n\n${HELP}`);
      return 2;
    }
    return fail(error.message);
  }
  try {
    const found = await findSkills(source.dir);
    if (typeof found === "string") return fail(found);
    if (found.length === 0)
      return fail(`no skill (a folder with a SKILL.md) in ${displayPath(source.origin, ctx)}`);

    const installedAt = new Date().toISOString();
    const outcome = await updateSkillsLock<Outcome>(where.lockFile, async (lock) => {
      const taken: string[] = [];
      for (const skill of found) {
        const exists = await fs.lstat(path.join(where.skillsDir, skill.name)).then(
          () => true,
          () => false,
        );
        if (exists && !values.force) taken.push(skill.name);
      }
      if (taken.length > 0) return { lock, result: { taken } };
      await fs.mkdir(where.skillsDir, { recursive: true });
      const copies = await stageAll(found, where.skillsDir);
      const baselines = [];
      for (const { skill, staged, copied } of copies) {
        const dest = path.join(where.skillsDir, skill.name);
        const replaced = await swapIn(staged, dest);
        baselines.push({
          name: skill.name,
          ...(replaced && { replaced }),
          installed: await fs.readFile(path.join(dest, "SKILL.md")),
          note: `installed by skillshelf add from ${source.origin}${source.commit ? ` at ${source.commit}` : ""}`,
        });
        const entry: InstalledSkill = {
          source: source.origin,
          kind: source.kind,
          ...(source.commit && { commit: source.commit }),
          path: skill.rel,
          installedAt,
          files: copied.files,
        };
        lock.skills[skill.name] = entry;
      }
      const versions = await recordBaselines(where.stateDir, baselines);
      return { lock, result: { copies, versions } };
    });

    if ("taken" in outcome) {
      return fail(
        `${outcome.taken.map((n) => displayPath(path.join(where.skillsDir, n), ctx)).join(", ")} already ${outcome.taken.length === 1 ? "exists" : "exist"}; nothing was installed (--force replaces them; 'skillshelf remove <name>' removes one)`,
      );
    }
    const installed = outcome.copies.map(({ skill, copied }) => ({
      name: skill.name,
      dir: path.join(where.skillsDir, skill.name),
      files: Object.keys(copied.files).length,
      skipped: copied.skipped,
      version: outcome.versions.get(skill.name),
    }));
    if (values.json) {
      ctx.out(
        `${JSON.stringify({ scope: where.scope, source: source.origin, commit: source.commit ?? null, lockFile: where.lockFile, installed }, null, 2)}\n`,
      );
      return 0;
    }
    const c = ctx.color;
    const lines = installed.map(
      (s) =>
        `${c.green("✔")} ${s.name}  ${displayPath(s.dir, ctx)}  (${plural(s.files, "file")}${s.skipped.length > 0 ? `; not copied: ${s.skipped.join(", ")}` : ""})`,
    );
    const from = `${displayPath(source.origin, ctx)}${source.commit ? ` at ${source.commit.slice(0, 12)}` : ""}`;
    const trustNote =
      where.scope === "project"
        ? `\n${c.dim("A shelf with the trust gate on withholds these project skills until you trust them: read them, then run 'skillshelf trust'.")}`
        : "";
    ctx.out(
      `${lines.join("\n")}\n${plural(installed.length, "skill")} installed from ${from}; recorded in ${displayPath(where.lockFile, ctx)}${trustNote}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof LockFileError || error instanceof InstallRefused) return fail(error.message);
    throw error;
  } finally {
    await source.close();
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      root: { type: "string" },
      user: { type: "boolean" },
      "state-dir": { type: "string" },
      force: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

type Staged = Awaited<ReturnType<typeof stageAll>>[number];
type Outcome = { taken: string[] } | { copies: Staged[]; versions: Map<string, string> };

/** The skill folders in the source (a folder inside another skill's is that skill's resource), or why not. */
async function findSkills(root: string): Promise<Found[] | string> {
  const files = new Set<string>();
  await collect(root, files);
  const folders = [...files].map((file) => path.dirname(file)).sort();
  const outermost = folders.filter(
    (dir, i) => !folders.slice(0, i).some((outer) => dir.startsWith(`${outer}${path.sep}`)),
  );
  const found: Found[] = [];
  const problems: string[] = [];
  for (const dir of outermost) {
    const rel = path.relative(root, dir) || ".";
    const file = [...files].find((f) => path.dirname(f) === dir)!;
    const { skill } = await readSkillFile(file, {
      path: rel,
      mode: "lenient",
      folderName: path.basename(dir),
    });
    if (!skill) {
      problems.push(`${rel} does not load (see 'skillshelf validate')`);
      continue;
    }
    // The name becomes a folder: the core rules keep it a single, plain path segment.
    const invalid = checkName(skill.name);
    if (invalid.length > 0) problems.push(`${rel}: ${invalid[0]!.message}`);
    else if (found.some((f) => f.name === skill.name))
      problems.push(`${rel}: a second skill named ${skill.name}`);
    else found.push({ name: skill.name, dir, rel });
  }
  if (problems.length > 0) return `nothing was installed: ${problems.join("; ")}`;
  return found;
}

/** Copies every skill next to its destination first, so a copy that fails changes nothing installed. */
async function stageAll(found: readonly Found[], skillsDir: string) {
  const staged: { skill: Found; staged: string; copied: CopiedFolder }[] = [];
  try {
    for (const skill of found) {
      const dir = path.join(skillsDir, `.${skill.name}.add-${randomBytes(6).toString("hex")}`);
      staged.push({ skill, staged: dir, copied: { files: {}, skipped: [] } });
      const copied = await copySkillFolder(skill.dir, dir);
      staged[staged.length - 1]!.copied = copied;
      // The copy is what gets installed: it must be the skill that was checked (a source
      // folder can change while it is read).
      const check = copied.files["SKILL.md"]
        ? await readSkillFile(path.join(dir, "SKILL.md"), { mode: "lenient", folderName: false })
        : undefined;
      if (check?.skill?.name !== skill.name) {
        throw new InstallRefused(`${skill.rel}/SKILL.md changed while it was copied; nothing was installed`);
      }
    }
  } catch (error) {
    await Promise.all(staged.map((s) => fs.rm(s.staged, { recursive: true, force: true })));
    throw error;
  }
  return staged;
}

/** Moves `staged` to `dest`; an existing `dest` is moved aside first and removed after. Returns its SKILL.md. */
async function swapIn(staged: string, dest: string): Promise<Buffer | undefined> {
  const existing = await fs.lstat(dest).catch(() => undefined);
  if (!existing) {
    await fs.rename(staged, dest);
    return undefined;
  }
  const aside = `${dest}.replaced-${randomBytes(6).toString("hex")}`;
  const replaced = existing.isDirectory()
    ? await fs.readFile(path.join(dest, "SKILL.md")).catch(() => undefined)
    : undefined;
  await fs.rename(dest, aside);
  await fs.rename(staged, dest);
  await fs.rm(aside, { recursive: true, force: true });
  return replaced;
}
