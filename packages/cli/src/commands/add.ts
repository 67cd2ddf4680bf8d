/**
 * `skillshelf add <source> [--path DIR] [--root DIR | --user] [--force] [--json]`: installs
 * the skills in a folder, a git repository or an npm package into the project's (or the
 * user's) skills, records where they came from in the lock file and starts each one's
 * history. All or nothing: a source with a skill that does not load, or a name already
 * installed (without `--force`), installs none.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, plural } from "./format-diagnostics.js";
import { recordBaselines } from "./install-history.js";
import { INSTALL_HELP, installScope } from "./install-scope.js";
import { InstallRefused } from "./skill-copy.js";
import {
  describeSource,
  findSkills,
  lockEntry,
  type StagedSkill,
  stageAll,
  swapIn,
} from "./skill-install.js";
import { type OpenedSource, openSource, SourceError } from "./skill-source.js";
import { LockFileError, updateSkillsLock } from "./skills-lock.js";

export const HELP = `Usage: skillshelf add <source> [--path DIR] [--root DIR | --user] [--force] [--json]

Installs every skill (a folder with a SKILL.md) found in <source>:
  ./folder                  a local folder, as it is
  ./repo[#ref]              a local git repository: one commit (HEAD, or a branch, tag or
                            commit after #) is fetched, so only committed files are installed
  https://host/repo.git[#ref], ssh://…, git@host:repo.git, file:///…
                            a git repository through the machine's git (its config
                            ignored); npm's git+https:// and git+ssh:// spellings too
  npm:<name>[@range]        an npm package from the registry (npm pack, no scripts run)
  ./package.tgz             an npm package tarball
A package's skills are in the folder its package.json names ("skillshelf": { "skills":
"skills" }), otherwise anywhere in it. A tarball with a link, a path outside it or more
than its size limits is refused whole.

Each skill is copied to <skills>/<name> (links are not copied), recorded in the lock file
(source, commit or version and integrity, sha256 of each file) and its history starts with
the installed content, so a later edit can be rolled back. 'skillshelf update' fetches it
again.

Project skills from elsewhere stay withheld by a shelf with the trust gate until you
trust them: read them, then run 'skillshelf trust'.

Options:
  --path DIR       only the skills in this folder of the source
${INSTALL_HELP}
  --force          replace skills already installed under the same names (the replaced
                   SKILL.md is kept in history)
  --json           print what was installed
  -h, --help       show this help

Exit status: 0 when installed, 1 when refused (a name taken, a skill that does not load,
no skill found, a refused archive, git or npm failed), 2 on bad usage.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("add", args, ctx, parse, HELP, {
    ok: (n) => n === 1,
    usage: "give one source: a folder, a git repository or an npm package",
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
    source = await openSource(parsed.positionals[0]!, {
      cwd: ctx.cwd,
      env: ctx.env,
      ...(values.path !== undefined && { subfolder: values.path }),
    });
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    if (error.usage) {
      ctx.err(`skillshelf add: ${error.message}\n\n${HELP}`);
      return 2;
    }
    return fail(error.message);
  }
  try {
    const found = await findSkills(source);
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
      const copies = await stageAll(found, where.skillsDir);
      const baselines = [];
      for (const copy of copies) {
        const dest = path.join(where.skillsDir, copy.skill.name);
        const replaced = await swapIn(copy.staged, dest);
        baselines.push({
          name: copy.skill.name,
          ...(replaced && { replaced }),
          installed: await fs.readFile(path.join(dest, "SKILL.md")),
          note: `installed by skillshelf add from ${describeSource(source)}`,
        });
        lock.skills[copy.skill.name] = lockEntry(source, copy, installedAt);
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
        `${JSON.stringify({ scope: where.scope, source: source.origin, commit: source.commit ?? null, version: source.version ?? null, integrity: source.integrity ?? null, lockFile: where.lockFile, installed }, null, 2)}\n`,
      );
      return 0;
    }
    const c = ctx.color;
    const lines = installed.map(
      (s) =>
        `${c.green("✔")} ${s.name}  ${displayPath(s.dir, ctx)}  (${plural(s.files, "file")}${s.skipped.length > 0 ? `; not copied: ${s.skipped.join(", ")}` : ""})`,
    );
    const from = `${displayPath(source.origin, ctx)}${source.commit ? ` at ${source.commit.slice(0, 12)}` : ""}${source.version ? ` (version ${source.version})` : ""}`;
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
      path: { type: "string" },
      root: { type: "string" },
      user: { type: "boolean" },
      "state-dir": { type: "string" },
      force: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

type Outcome = { taken: string[] } | { copies: StagedSkill[]; versions: Map<string, string> };
