/**
 * Per-file bookkeeping shared by the parse steps: the diagnostics collected so far (with the
 * mode deciding how severe a broken rule is) and the mapping from YAML offsets to file lines.
 */
import { diagnostic } from "../diagnostic.js";
import type { Diagnostic, DiagnosticCode, ParseMode, ParseResult, Severity } from "../types.js";
import { MAX_DIAGNOSTICS_PER_CODE } from "./limits.js";
import { ownOptional, ownString } from "./own-string.js";

export class Report {
  readonly diagnostics: Diagnostic[] = [];
  /**
   * Per code: how many were reported (and the line of the first one not listed), so a file
   * repeating one mistake cannot flood the host.
   */
  private perCode: Map<DiagnosticCode, { count: number; severity: Severity; line: number }> | undefined;
  constructor(
    readonly file: string,
    readonly mode: ParseMode,
  ) {}

  add(
    severity: Severity,
    code: DiagnosticCode,
    message: string,
    line?: number,
    hint?: string,
    column?: number,
  ): void {
    this.perCode ??= new Map();
    const seen = this.perCode.get(code);
    if (seen === undefined) this.perCode.set(code, { count: 1, severity, line: 0 });
    else if (++seen.count > MAX_DIAGNOSTICS_PER_CODE) {
      if (seen.line === 0) seen.line = line ?? 1;
      return;
    }
    // Messages quote the file's values (slices of its text): copied, so a diagnostic kept
    // after the load does not keep the whole file in memory.
    this.diagnostics.push(
      diagnostic({
        severity,
        code,
        message: ownString(message),
        file: this.file,
        line,
        column,
        hint: ownOptional(hint),
      }),
    );
  }

  /** A rule the spec sets: a warning when lenient (load anyway), an error when strict. */
  rule(code: DiagnosticCode, message: string, line?: number, hint?: string): void {
    this.add(this.mode === "strict" ? "error" : "warning", code, message, line, hint);
  }

  error(code: DiagnosticCode, message: string, line?: number, hint?: string, column?: number): void {
    this.add("error", code, message, line, hint, column);
  }

  /**
   * An error that does not skip the skill in lenient mode: the caller has already made the
   * skill safe (e.g. maximally restricted), and the error makes sure a human sees why.
   * Strict mode skips the skill, as for any error.
   */
  restrict(code: DiagnosticCode, message: string, line?: number, hint?: string): void {
    if (this.mode === "lenient") {
      this.restricting ??= new Set();
      this.restricting.add(code);
    }
    this.add("error", code, message, line, hint);
  }

  private restricting: Set<DiagnosticCode> | undefined;

  hasError(): boolean {
    return this.diagnostics.some((d) => d.severity === "error" && !this.restricting?.has(d.code));
  }

  /** The skill is returned exactly when no diagnostic is an error (other than `restrict`'s). */
  result(skill?: ParseResult["skill"]): ParseResult {
    for (const [code, seen] of this.perCode ?? []) {
      if (seen.count <= MAX_DIAGNOSTICS_PER_CODE) continue;
      const hidden = seen.count - MAX_DIAGNOSTICS_PER_CODE;
      this.diagnostics.push(
        diagnostic({
          severity: seen.severity,
          code,
          message: `${hidden} more \`${code}\` problem${hidden === 1 ? "" : "s"} from here on, not listed`,
          file: this.file,
          line: seen.line,
        }),
      );
    }
    // Top to bottom, as a reader fixes them (sort is stable: same-line ones keep their order).
    if (this.diagnostics.length > 1) this.diagnostics.sort((a, b) => a.line - b.line);
    return skill === undefined || this.hasError()
      ? { diagnostics: this.diagnostics }
      : { skill, diagnostics: this.diagnostics };
  }
}

/** Offsets in the frontmatter YAML → 1-based file lines; the line table is built on first use. */
export class Locator {
  private starts: number[] | undefined;
  constructor(
    private readonly yaml: string,
    /** File line of the YAML's first line. */
    private readonly firstLine: number,
  ) {}

  at(offset: number): { line: number; column: number } {
    if (this.starts === undefined) {
      this.starts = [0];
      for (let i = this.yaml.indexOf("\n"); i !== -1; i = this.yaml.indexOf("\n", i + 1))
        this.starts.push(i + 1);
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.firstLine + lo, column: offset - this.starts[lo]! + 1 };
  }

  /** The text of a file line inside the frontmatter ("" outside it). */
  text(line: number): string {
    const index = line - this.firstLine;
    if (index < 0) return "";
    this.at(0);
    const start = this.starts![index];
    if (start === undefined) return "";
    const end = this.yaml.indexOf("\n", start);
    return this.yaml.slice(start, end === -1 ? undefined : end);
  }

  /** File line of a 0-based YAML line index. */
  line(index: number): number {
    return this.firstLine + index;
  }

  /** The node's line; no node (a field that is absent) points at the opening `---`, line 1. */
  lineOf(node: { range?: [number, number, number] | null } | null | undefined): number {
    return node?.range ? this.at(node.range[0]).line : 1;
  }
}
