/**
 * `skillshelf validate [paths…] [--strict] [--json]`: checks SKILL.md files for CI and for
 * authors. Unlike runtime loading (which keeps to `<root>/<name>/SKILL.md` and one category
 * level), it checks every SKILL.md / skill.md below the given folders at any depth.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  checkStepFiles,
  type Diagnostic,
  defaultTrustFile,
  diagnostic,
  evaluateTrust,
  folderDigest,
  type ParseMode,
  readSkillFile,
  readTrustFile,
  SKILL_FILE_NAMES,
  type SkillMeta,
  skillParameters,
  type TrustFile,
  type TrustStatus,
  triggerDiagnostics,
} from "@skillshelf/core";
import { startCommand } from "../args.js";
import type { CommandContext } from "../context.js";
import { displayPath, formatFileDiagnostics, plural, severityTally } from "./format-diagnostics.js";

export const HELP = `Usage: skillshelf validate [paths...] [--strict] [--json]

Checks every SKILL.md (or skill.md) in the given files and folders, at any depth.
Folders named .git or node_modules are skipped and links to folders are not followed;
other hidden folders (.agents, .claude, ...) are checked. Default path: the current folder.

Options:
  --strict    apply the Agent Skills specification's rules (name = folder, known keys,
              length limits) as errors, as CI should
  --json      print every file checked with its status and diagnostics, and totals by code
  -h, --help  show this help

Exit status: 0 when no file has an error, 1 when one does (or nothing was found), 2 on bad usage.
`;

/** Folders never worth descending into when looking for skills. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);
const CONCURRENCY = 32;

export type FileStatus = "ok" | "warning" | "error";

export interface FileReport {
  file: string;
  status: FileStatus;
  /** The skill's name when the file loaded. */
  name?: string;
  /** Its folder's state in the user's trust file (it matters for project skills under the trust gate). */
  trust?: TrustStatus;
  diagnostics: Diagnostic[];
}

export interface ValidateReport {
  mode: ParseMode;
  files: FileReport[];
  totals: {
    files: number;
    ok: number;
    warning: number;
    error: number;
    errors: number;
    warnings: number;
    infos: number;
    byCode: Record<string, number>;
  };
}

export async function run(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = startCommand("validate", args, ctx, parse, HELP);
  if (typeof parsed === "number") return parsed;
  const mode: ParseMode = parsed.values.strict ? "strict" : "lenient";
  const targets = parsed.positionals.length > 0 ? parsed.positionals : ["."];
  // Trust states are reported once the user keeps trust records (`skillshelf trust`).
  const trustFile = defaultTrustFile(ctx.env.HOME);
  const kept = await fs.stat(trustFile).then(
    () => true,
    () => false,
  );
  const trust = kept ? (await readTrustFile(trustFile)).trust : undefined;
  const report = await validate(targets, {
    mode,
    cwd: ctx.cwd,
    display: (file) => displayPath(file, ctx),
    ...(trust && { trust }),
  });

  if (parsed.values.json) ctx.out(`${JSON.stringify(report, null, 2)}\n`);
  else ctx.out(human(report, targets, ctx));
  return report.totals.files === 0 || report.totals.errors > 0 ? 1 : 0;
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

export interface ValidateOptions {
  mode?: ParseMode;
  cwd?: string;
  /** How file paths appear in the report (default: as found). */
  display?: (absolutePath: string) => string;
  /** Report each loaded file's trust state against these records. */
  trust?: TrustFile;
}

/** Validates the skill files in `targets` (files or folders). */
export async function validate(
  targets: readonly string[],
  options: ValidateOptions = {},
): Promise<ValidateReport> {
  const mode = options.mode ?? "lenient";
  const cwd = options.cwd ?? process.cwd();
  const display = options.display ?? ((file: string) => file);
  const found = new Set<string>();
  const files: FileReport[] = [];

  for (const target of targets) {
    const absolute = path.resolve(cwd, target);
    try {
      const info = await fs.stat(absolute);
      if (info.isDirectory()) await collect(absolute, found);
      else found.add(absolute); // a file named explicitly is checked whatever its name
    } catch (error) {
      files.push(problem(display(absolute), `cannot read ${target}: ${(error as Error).message}`));
    }
  }

  const list = [...found].sort();
  for (let i = 0; i < list.length; i += CONCURRENCY) {
    const batch = list.slice(i, i + CONCURRENCY);
    const results = await Promise.all(
      batch.map(async (file) => {
        const result = await readSkillFile(file, {
          path: display(file),
          mode,
          folderName: path.basename(path.dirname(file)),
        });
        const triggers = await checkTriggers(result.skill, file, display(file), mode);
        // A workflow's step prompts (steps/NN-<id>.md) are part of it: missing or escaping ones are errors.
        const stepFiles = result.skill
          ? checkStepFiles({ ...result.skill, dir: path.dirname(file), file: display(file) })
          : [];
        // Its parameter schema (schema.json beside it, or `parameters:`): a broken one refuses every activation.
        const parameters = result.skill
          ? skillParameters({
              file: display(file),
              dir: path.dirname(file),
              parameters: result.skill.parameters,
            }).diagnostics.map((d) => ({
              ...d,
              file: d.file && path.isAbsolute(d.file) ? display(d.file) : d.file,
            }))
          : [];
        const trust =
          options.trust && result.skill ? await trustOf(result.skill, file, options.trust) : undefined;
        return {
          ...result,
          diagnostics: [...result.diagnostics, ...triggers, ...stepFiles, ...parameters],
          trust,
        };
      }),
    );
    results.forEach((result, j) => {
      const status: FileStatus = result.diagnostics.some((d) => d.severity === "error")
        ? "error"
        : result.diagnostics.some((d) => d.severity === "warning")
          ? "warning"
          : "ok";
      const entry: FileReport = { file: display(batch[j]!), status, diagnostics: result.diagnostics };
      if (result.skill) entry.name = result.skill.name;
      if (result.trust) entry.trust = result.trust;
      files.push(entry);
    });
  }

  return { mode, files, totals: totals(files) };
}

/**
 * Triggers and exclusions matching would refuse (a /regex/ that does not compile, or needs
 * backtracking): parsing only reads them as text. Errors in strict mode, as CI wants; the
 * file is read again only when there is one to locate.
 */
async function checkTriggers(
  skill: Pick<SkillMeta, "name" | "triggers" | "exclusions"> | undefined,
  file: string,
  shown: string,
  mode: ParseMode,
): Promise<Diagnostic[]> {
  if (!skill) return [];
  const options = { file: shown, severity: mode === "strict" ? ("error" as const) : ("warning" as const) };
  const found = triggerDiagnostics(skill, options);
  if (found.length === 0) return found;
  const source = await fs.readFile(file, "utf8").catch(() => undefined);
  return source === undefined ? found : triggerDiagnostics(skill, { ...options, source });
}

/** The trust state of the folder holding `file`, as `skillshelf trust` recorded it. */
async function trustOf(
  skill: Parameters<typeof evaluateTrust>[0],
  file: string,
  trust: TrustFile,
): Promise<TrustStatus | undefined> {
  const folder = await fs.realpath(path.dirname(file)).catch(() => undefined);
  if (folder === undefined) return undefined;
  return evaluateTrust(skill, folder, await folderDigest(folder), trust.folders[folder]).status;
}

/** Adds every SKILL.md / skill.md below `dir` (any depth, .git and node_modules skipped) to `found`. */
export async function collect(dir: string, found: Set<string>): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folder below a target: nothing we can check there
  }
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) folders.push(path.join(dir, entry.name));
    } else if ((SKILL_FILE_NAMES as readonly string[]).includes(entry.name)) {
      // Regular files and links alike: readSkillFile refuses anything that is not a regular file.
      found.add(path.join(dir, entry.name));
    }
  }
  await Promise.all(folders.map((folder) => collect(folder, found)));
}

function problem(file: string, message: string): FileReport {
  return {
    file,
    status: "error",
    diagnostics: [
      diagnostic({
        severity: "error",
        code: "read-error",
        message,
        file,
        hint: "Check the path: give SKILL.md files or folders that contain them.",
      }),
    ],
  };
}

function totals(files: readonly FileReport[]): ValidateReport["totals"] {
  const status = { ok: 0, warning: 0, error: 0 };
  for (const file of files) status[file.status]++;
  return { files: files.length, ...status, ...severityTally(files.flatMap((f) => f.diagnostics)) };
}

function human(report: ValidateReport, targets: readonly string[], ctx: CommandContext): string {
  const c = ctx.color;
  const { totals: t } = report;
  if (t.files === 0) {
    return `${c.red("✖")} no SKILL.md files found in ${targets.join(", ")}\n`;
  }
  const blocks = report.files
    .filter((f) => f.diagnostics.length > 0)
    .map((f) => `${c.underline(f.file)}\n${formatFileDiagnostics(f.diagnostics, ctx)}`);
  const problems = t.errors + t.warnings + t.infos;
  const strict = report.mode === "strict" ? " (strict)" : "";
  const summary =
    problems === 0
      ? `${c.green("✔")} ${plural(t.files, "file")} checked${strict}, no problems`
      : `${t.errors > 0 ? c.red("✖") : c.yellow("⚠")} ${plural(problems, "problem")} (${plural(t.errors, "error")}, ${plural(t.warnings, "warning")}${t.infos ? `, ${t.infos} info` : ""}) in ${plural(t.files - t.ok, "file")} of ${t.files} checked${strict}`;
  const untrusted = report.files.filter((f) => f.trust !== undefined && f.trust !== "trusted");
  const trustLine =
    untrusted.length > 0
      ? `\n${c.dim(`${plural(untrusted.length, "skill folder")} not trusted (${untrusted.filter((f) => f.trust === "needs-retrust").length} changed and need a new trust): a shelf with the trust gate on withholds them as project skills; see 'skillshelf trust --list'`)}`
      : "";
  return `${blocks.length > 0 ? `${blocks.join("\n\n")}\n\n` : ""}${summary}${trustLine}\n`;
}
