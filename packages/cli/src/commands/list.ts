/**
 * `skillshelf list`: the skills a shelf would resolve here — name, scope, file, and the
 * files each one shadows — plus the files that could not be loaded.
 *
 * `--project DIR` and `--user DIR` name skill folders (folders holding `<name>/SKILL.md`),
 * not project roots: `--project examples/skills`. Either option replaces that scope's
 * default folders; `--root DIR` moves the project root the defaults are taken from.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  builtinRoleSkills,
  configuredSources,
  type Diagnostic,
  defaultTrustFile,
  type LoadSkillsResult,
  loadSkills,
  type Overridden,
  readShelfConfig,
  readTrustFile,
  type Skill,
  skillDomain,
  type TrustState,
  trustStates,
} from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { columnWidth, padEndColumns } from "../text-width.js";
import { displayPath, formatDiagnostics, plural } from "./format-diagnostics.js";
import { duplicateGroups, formatDuplicateGroups } from "./list-duplicates.js";
import { trustLabel } from "./trust.js";

/** Each project skill's trust state (see `skillshelf trust`). */
type Trust = ReadonlyMap<Skill, TrustState>;

/** What the config file turns off (see `skillshelf disable`). */
export interface Disabled {
  names: ReadonlySet<string>;
  /** The config file cannot be read: every skill from a folder is off. */
  problem?: string;
}

const isOff = (skill: Skill, disabled: Disabled | undefined) =>
  disabled !== undefined &&
  (disabled.names.has(skill.name) || (disabled.problem !== undefined && skill.scope !== "builtin"));

/** The npm package a skill file is shipped in (package skills), if any. */
export function packageOf(file: string): string | undefined {
  const parts = file.split(/[\\/]/u);
  const at = parts.lastIndexOf("node_modules");
  if (at === -1 || at + 1 >= parts.length) return undefined;
  const first = parts[at + 1]!;
  return first.startsWith("@") && at + 2 < parts.length ? `${first}/${parts[at + 2]}` : first;
}

export const HELP = `Usage: skillshelf list [--root DIR] [--project DIR]... [--user DIR]... [--claude] [--domain NAME] [--group-duplicates] [--json]

Lists the skills a shelf resolves: name, scope, file and the files each one shadows
(project > user > builtin), then the files that could not be loaded.

Options:
  --root DIR      project root (default: the current folder); its .skillshelf/skills and
                  .agents/skills are the project skill folders unless --project is given
  --project DIR   a project skill folder, holding <name>/SKILL.md; repeatable, replaces
                  the default project folders
  --user DIR      a user skill folder; repeatable, replaces ~/.skillshelf/skills and
                  ~/.agents/skills
  --claude        also read .claude/skills (under the root and under home)
  --package-skills
                  also read the skills the project's npm dependencies ship (on anyway
                  when .skillshelf/config.json says "packageSkills": true)
  --domain NAME   only the skills on that shelf: their \`domain:\`, or the category
                  folder they sit in (<folder>/<domain>/<name>/SKILL.md)
  --no-builtins   leave out the builtin role skills
  --strict        load with the specification's rules (files that break them are skipped)
  --group-duplicates
                  list only the names more than one file defines, most files first: the
                  file used and the files that are not
  --trust         show each project skill's trust state (shown anyway once the trust
                  file exists; see 'skillshelf trust')
  --trust-file F  the trust file project skills are checked against (default:
                  ~/.skillshelf/trust.json)
  --json          print sources, skills (with what they shadow, trust) and diagnostics as JSON
  -h, --help      show this help

Exit status: 0 (files that could not be loaded are reported, not fatal; use
'skillshelf validate' to gate CI), 2 on bad usage.
`;

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("list", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;

  const fromCwd = (dir: string) => path.resolve(ctx.cwd, dir);
  const configured = await configuredSources({
    root: fromCwd(values.root ?? "."),
    projectDirs: values.project?.map(fromCwd),
    ...(values["package-skills"] && { packageSkills: true }),
  });
  const config = configured.file ? await readShelfConfig(configured.file) : undefined;
  const disabled: Disabled = {
    names: new Set(config?.config.disabled),
    ...(config?.problem && { problem: `${displayPath(configured.file!, ctx)}: ${config.problem}` }),
  };
  const result = await loadSkills({
    root: configured.sourceOptions.root,
    projectDirs: configured.sourceOptions.projectDirs,
    userDirs: values.user?.map(fromCwd),
    home: ctx.env.HOME,
    claude: values.claude,
    mode: values.strict ? "strict" : "lenient",
    builtins: values["no-builtins"] ? [] : builtinRoleSkills(),
  });
  if (values.domain !== undefined) {
    const wanted = values.domain.trim().toLowerCase();
    result.skills = result.skills.filter((s) => skillDomain(s, result.sources)?.toLowerCase() === wanted);
  }

  if (values["group-duplicates"]) {
    const groups = values.json
      ? `${JSON.stringify({ duplicates: duplicateGroups(result) }, null, 2)}\n`
      : undefined;
    ctx.out(groups ?? formatDuplicateGroups(result, ctx));
    return 0;
  }
  const trustFile = values["trust-file"] ? fromCwd(values["trust-file"]) : defaultTrustFile(ctx.env.HOME);
  const trust = await trustStates(result.skills, (await readTrustFile(trustFile)).trust);
  // The table names trust states once the user keeps trust records (or asks): before that,
  // every project skill is "untrusted" and the column says nothing new.
  const showTrust = values.trust === true || (await fileExists(trustFile));
  ctx.out(
    values.json
      ? `${JSON.stringify(toJson(result, trust, disabled), null, 2)}\n`
      : formatList(result, ctx, showTrust ? trust : undefined, disabled),
  );
  return 0;
}

async function fileExists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      root: { type: "string" },
      project: { type: "string", multiple: true },
      user: { type: "string", multiple: true },
      claude: { type: "boolean" },
      "package-skills": { type: "boolean" },
      domain: { type: "string" },
      "no-builtins": { type: "boolean" },
      strict: { type: "boolean" },
      "group-duplicates": { type: "boolean" },
      json: { type: "boolean" },
      trust: { type: "boolean" },
      "trust-file": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** The files each winner overrides, by the winner's file: one pass, not one filter per skill. */
function overriddenBy(result: LoadSkillsResult): Map<string, Overridden[]> {
  const byWinner = new Map<string, Overridden[]>();
  for (const o of result.overridden) {
    const list = byWinner.get(o.by);
    if (list) list.push(o);
    else byWinner.set(o.by, [o]);
  }
  return byWinner;
}

function toJson(result: LoadSkillsResult, trust: Trust = new Map(), disabled?: Disabled) {
  const shadows = overriddenBy(result);
  return {
    sources: result.sources.map(({ dir, scope }) => ({ dir, scope })),
    skills: result.skills.map((skill) => ({
      name: skill.name,
      scope: skill.scope,
      file: skill.file,
      description: skill.description,
      ...(skillDomain(skill, result.sources) && { domain: skillDomain(skill, result.sources) }),
      ...(trust.has(skill) && { trust: trust.get(skill)?.status }),
      ...(isOff(skill, disabled) && { disabled: true }),
      ...(packageOf(skill.file) && { package: packageOf(skill.file) }),
      shadows: (shadows.get(skill.file) ?? []).map(({ file, scope, reason }) => ({ file, scope, reason })),
    })),
    diagnostics: result.diagnostics,
    ...(disabled?.problem && { configProblem: disabled.problem }),
  };
}

/** The human listing: a table of skills with what each overrides, a summary, the files that failed. */
export function formatList(
  result: LoadSkillsResult,
  ctx: CommandContext,
  trust: Trust = new Map(),
  disabled?: Disabled,
): string {
  const c = ctx.color;
  const lines: string[] = [];
  const shadows = overriddenBy(result);
  const rows = result.skills.map((skill) => ({
    name: skill.name,
    scope: skill.scope,
    domain: skillDomain(skill, result.sources),
    file: displayPath(skill.file, ctx),
    trust: trustLabel(trust.get(skill)),
    disabled: isOff(skill, disabled),
    package: packageOf(skill.file),
    shadows: shadows.get(skill.file) ?? [],
  }));
  // A loop, not Math.max(...rows): spreading 100,000+ values as arguments overflows the stack.
  const nameWidth = columnWidth(
    rows.map((r) => r.name),
    4,
  );
  const scopeWidth = 7;
  // The DOMAIN column appears once a skill has one (seed 004's shelves).
  const domains = rows.some((r) => r.domain !== undefined);
  const domainWidth = domains
    ? columnWidth(
        rows.map((r) => r.domain ?? ""),
        6,
      )
    : 0;
  const domainCell = (text: string) => (domains ? `${padEndColumns(text, domainWidth)}  ` : "");
  if (rows.length > 0) {
    lines.push(
      c.dim(
        `${padEndColumns("NAME", nameWidth)}  ${padEndColumns("SCOPE", scopeWidth)}  ${domainCell("DOMAIN")}FILE`,
      ),
    );
    for (const row of rows) {
      const state =
        (row.trust === "" ? "" : `  ${row.trust === "trusted" ? c.green(row.trust) : c.yellow(row.trust)}`) +
        (row.package ? c.dim(`  (npm ${row.package})`) : "") +
        (row.disabled ? `  ${c.yellow("disabled")}` : "");
      lines.push(
        `${c.bold(padEndColumns(row.name, nameWidth))}  ${padEndColumns(row.scope, scopeWidth)}  ${domainCell(row.domain ?? "")}${row.file}${state}`,
      );
      for (const o of row.shadows) {
        const what =
          o.reason === "duplicate-name" ? "duplicate ignored" : o.reason === "locked" ? "refused" : "shadows";
        lines.push(
          c.dim(
            `${" ".repeat(nameWidth + scopeWidth + 4 + (domains ? domainWidth + 2 : 0))}${what} ${o.scope} ${displayPath(o.file, ctx)}`,
          ),
        );
      }
    }
  }

  const scopes = (["project", "user", "builtin"] as const)
    .map((scope) => [scope, result.skills.filter((s) => s.scope === scope).length] as const)
    .filter(([, n]) => n > 0)
    .map(([scope, n]) => `${n} ${scope}`)
    .join(", ");
  const folders = result.sources.map((s) => displayPath(s.dir, ctx)).join(", ");
  let off = 0;
  for (const row of rows) if (row.disabled) off++;
  lines.push(
    `${rows.length > 0 ? "\n" : ""}${plural(result.skills.length, "skill")}${scopes ? ` (${scopes})` : ""}${off > 0 ? `, ${off} disabled` : ""} from ${folders || "no folders"}`,
  );

  if (disabled?.problem) {
    lines.push(
      `\n${c.red(`The config file cannot be used (${disabled.problem}): every skill from a folder is treated as disabled.`)}`,
    );
  }
  // Files that could not be loaded matter here; warnings are `validate`'s job.
  const errors = result.diagnostics.filter((d: Diagnostic) => d.severity === "error");
  const warnings = result.diagnostics.filter(
    (d) => d.severity === "warning" && !["shadowed", "duplicate-name", "locked"].includes(d.code),
  );
  if (errors.length > 0) {
    const skipped = new Set(errors.map((d) => d.file)).size;
    lines.push(
      `\n${c.red(`${plural(skipped, "file")} could not be loaded:`)}\n${formatDiagnostics(errors, ctx)}`,
    );
  }
  if (warnings.length > 0) {
    lines.push(
      c.dim(`\n${plural(warnings.length, "warning")}; run 'skillshelf validate <folder>' for details.`),
    );
  }
  return `${lines.join("\n")}\n`;
}
