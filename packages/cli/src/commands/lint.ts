/**
 * `skillshelf lint [paths…] [--strict] [--json]`: advice on how well skills will route —
 * vague descriptions, missing exclusions, long bodies that bury their rules, leftover
 * scaffold text, generic one-word triggers, and pairs of skills that compete for the same
 * requests. `validate` says whether a file loads; `lint` says whether it will be used well.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { MAX_SKILL_FILE_BYTES, readSkillFile, type Skill } from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, formatFileDiagnostics, plural, severityTally } from "./format-diagnostics.js";
import type { LintedSkill, LintFinding } from "./lint-finding.js";
import { LONG_BODY_LINES, RULES_WITHIN_LINES, SHORT_DESCRIPTION_WORDS, skillFindings } from "./lint-rules.js";
import { shelfFindings } from "./lint-shelf.js";
import { collect } from "./validate.js";

export const HELP = `Usage: skillshelf lint [paths...] [--strict] [--json]

Checks how well the skills in the given files and folders (any depth, as 'validate'
finds them; default: the current folder) will route, and prints a hint for each finding:

  vague-description    under ${SHORT_DESCRIPTION_WORDS} words with no boundary ("only", "not") and no trigger
                       signal (triggers, examples, when_to_use, "use when ...")
  missing-exclusions   a model-invocable skill with no exclusions and no "not for" clause
  key-rules-not-first  a body over ${LONG_BODY_LINES} lines whose first ${RULES_WITHIN_LINES} lines hold no rule list
  placeholder-text     TODO left from 'skillshelf init'
  generic-trigger      a one-word trigger that is a common word, or one that many of the
                       other skills' descriptions use
  overlapping-skills   one skill's example or trigger makes another skill a stage-1
                       candidate (the matcher 'skillshelf match' uses)
  not-loaded           the file does not load ('skillshelf validate' says why)

The skills are checked together, as one shelf: lint the folders a shelf reads.

Options:
  --strict    exit 1 on any warning, as CI should
  --json      print the findings and totals by code as JSON
  -h, --help  show this help

Exit status: 0 when no file failed to load (and, with --strict, no warning), 1 otherwise
or when no skill file was found, 2 on bad usage (a path that does not exist).
`;

export interface LintReport {
  files: number;
  findings: LintFinding[];
  totals: { errors: number; warnings: number; infos: number; byCode: Record<string, number> };
}

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("lint", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const targets = parsed.positionals.length > 0 ? parsed.positionals : ["."];
  const found = new Set<string>();
  for (const target of targets) {
    const absolute = path.resolve(ctx.cwd, target);
    const info = await fs.stat(absolute).catch(() => undefined);
    if (!info) {
      ctx.err(`skillshelf lint: ${target} does not exist\n\n${HELP}`);
      return 2;
    }
    if (info.isDirectory()) await collect(absolute, found);
    else found.add(absolute);
  }
  const report = await lint([...found].sort(), (file) => displayPath(file, ctx));

  if (parsed.values.json) ctx.out(`${JSON.stringify(report, null, 2)}\n`);
  else ctx.out(human(report, targets, ctx));
  const { totals } = report;
  if (report.files === 0 || totals.errors > 0) return 1;
  return parsed.values.strict && totals.warnings > 0 ? 1 : 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      strict: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** Lints `files` (absolute paths) as one set of skills. */
export async function lint(files: readonly string[], display: (file: string) => string): Promise<LintReport> {
  const findings: LintFinding[] = [];
  const loaded: LintedSkill[] = [];
  for (const file of files) {
    const shown = display(file);
    const entry = await load(file, shown);
    if (typeof entry === "string") {
      findings.push({
        severity: "error",
        code: "not-loaded",
        message: entry,
        file: shown,
        line: 1,
        hint: `Run 'skillshelf validate ${shown}' for the problems that keep it from loading.`,
      });
    } else loaded.push(entry);
  }
  for (const entry of loaded) findings.push(...skillFindings(entry));
  findings.push(...shelfFindings(loaded));
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { files: files.length, findings, totals: totals(findings) };
}

/** The skill and its text, or why it could not be had. */
async function load(file: string, shown: string): Promise<LintedSkill | string> {
  const result = await readSkillFile(file, {
    path: shown,
    mode: "lenient",
    folderName: path.basename(path.dirname(file)),
  });
  if (!result.skill) return "the file does not load as a skill";
  const source = await readText(file);
  if (source === undefined) return "the file changed or went away while it was read";
  const skill: Skill = { ...result.skill, scope: "project", locked: false };
  return { skill, file: shown, source };
}

/** The file's text, read once through one handle: a regular file within the size limit only. */
async function readText(file: string): Promise<string | undefined> {
  const handle = await fs.open(file, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_SKILL_FILE_BYTES) return undefined;
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

function totals(findings: readonly LintFinding[]): LintReport["totals"] {
  return severityTally(findings);
}

function human(report: LintReport, targets: readonly string[], ctx: CommandContext): string {
  const c = ctx.color;
  if (report.files === 0) return `${c.red("✖")} no SKILL.md files found in ${targets.join(", ")}\n`;
  const byFile = new Map<string, LintFinding[]>();
  for (const f of report.findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const blocks = [...byFile].map(
    ([file, list]) => `${c.underline(file)}\n${formatFileDiagnostics(list, ctx)}`,
  );
  const { errors, warnings, infos } = report.totals;
  const count = errors + warnings + infos;
  const summary =
    count === 0
      ? `${c.green("✔")} ${plural(report.files, "file")} linted, no findings`
      : `${errors > 0 ? c.red("✖") : c.yellow("⚠")} ${plural(count, "finding")} (${plural(errors, "error")}, ${plural(warnings, "warning")}) in ${plural(byFile.size, "file")} of ${report.files} linted`;
  return `${blocks.length > 0 ? `${blocks.join("\n\n")}\n\n` : ""}${summary}\n`;
}
