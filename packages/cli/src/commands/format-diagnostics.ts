/**
 * Printing diagnostics for people: grouped by file, one line per problem with its line
 * number, the hint underneath. Colour comes from the context (on for a TTY only).
 */
import os from "node:os";
import path from "node:path";
import type { Diagnostic, Severity } from "@skillshelf/core";
import type { CommandContext } from "../context.js";

/** A path as a person wants to read it: relative to the working folder, `~/…` under home. */
export function displayPath(file: string, ctx: Pick<CommandContext, "cwd" | "env">): string {
  if (!path.isAbsolute(file)) return file;
  const fromCwd = path.relative(ctx.cwd, file);
  if (fromCwd === "") return ".";
  if (!fromCwd.startsWith("..") && !path.isAbsolute(fromCwd)) return fromCwd;
  const home = ctx.env.HOME ?? os.homedir();
  if (home && (file === home || file.startsWith(home + path.sep))) return `~${file.slice(home.length)}`;
  return file;
}

export function severityLabel(severity: Severity, ctx: CommandContext): string {
  const c = ctx.color;
  const label = severity.padEnd(7);
  return severity === "error" ? c.red(label) : severity === "warning" ? c.yellow(label) : c.blue(label);
}

/** A diagnostic or anything shaped like one (the lint findings, with codes of their own). */
export type DiagnosticLike = Omit<Diagnostic, "code"> & { code: string };

/** `  12:3  error    yaml-syntax  message` + `         hint: …`, for one file's diagnostics. */
export function formatFileDiagnostics(diagnostics: readonly DiagnosticLike[], ctx: CommandContext): string {
  const sorted = [...diagnostics].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  const where = sorted.map((d) => (d.column !== undefined ? `${d.line}:${d.column}` : `${d.line}`));
  // A loop, not Math.max(...where): one file can carry more diagnostics than a call has room for arguments.
  let width = 0;
  for (const w of where) if (w.length > width) width = w.length;
  const c = ctx.color;
  return sorted
    .map((d, i) => {
      const head = `  ${c.dim(where[i]!.padStart(width))}  ${severityLabel(d.severity, ctx)}  ${c.dim(d.code)}  ${d.message}`;
      return `${head}\n  ${" ".repeat(width)}  ${c.dim(`hint: ${d.hint}`)}`;
    })
    .join("\n");
}

/** Diagnostics grouped under their file, files in the order given. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], ctx: CommandContext): string {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  return [...byFile]
    .map(
      ([file, list]) => `${ctx.color.underline(displayPath(file, ctx))}\n${formatFileDiagnostics(list, ctx)}`,
    )
    .join("\n\n");
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export interface SeverityTally {
  errors: number;
  warnings: number;
  infos: number;
  /** Count per diagnostic code, codes in order. */
  byCode: Record<string, number>;
}

/** What `validate --json` and `lint --json` total: counts per severity and per code. */
export function severityTally(items: Iterable<{ severity: Severity; code: string }>): SeverityTally {
  const t: SeverityTally = { errors: 0, warnings: 0, infos: 0, byCode: {} };
  for (const item of items) {
    if (item.severity === "error") t.errors++;
    else if (item.severity === "warning") t.warnings++;
    else t.infos++;
    t.byCode[item.code] = (t.byCode[item.code] ?? 0) + 1;
  }
  t.byCode = Object.fromEntries(Object.entries(t.byCode).sort(([a], [b]) => (a < b ? -1 : 1)));
  return t;
}
