/**
 * parseSkill: SKILL.md text or bytes → a normalised skill plus located diagnostics.
 *
 * Never throws and never hangs on bad input: every failure becomes a diagnostic, and the
 * skill is returned exactly when no diagnostic is an error. The happy path builds one YAML
 * document and walks its top-level pairs once; line numbers are only computed when a
 * diagnostic needs one.
 */
import { createHash } from "node:crypto";
import { basename, dirname } from "node:path";
import { isMap, isScalar, type Node, parseDocument, type Scalar } from "yaml";
import { diagnostic } from "../diagnostic.js";
import type {
  Diagnostic,
  DiagnosticCode,
  ParseMode,
  ParseOptions,
  ParseResult,
  Severity,
  SkillMeta,
} from "../types.js";
import { countNewlines, splitFrontmatter } from "./frontmatter.js";
import {
  BODY_MAX_LINES,
  COMPATIBILITY_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  MAX_YAML_ALIASES,
} from "./limits.js";
import { checkName, codePointLength, normalizeName, suggestName } from "./name-rules.js";
import { defineOwn, FIELD_BY_KEY, type FieldSpec } from "./schema.js";
import { quoteColonValues } from "./yaml-recovery.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const UTF8_BOM = 0xfeff;

/** Collects diagnostics for one file, with the mode deciding how severe rule breaks are. */
class Report {
  readonly diagnostics: Diagnostic[] = [];
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
  ) {
    this.diagnostics.push(diagnostic({ severity, code, message, file: this.file, line, column, hint }));
  }
  /** A rule the spec sets: a warning when lenient (load anyway), an error when strict. */
  rule(code: DiagnosticCode, message: string, line?: number, hint?: string, column?: number) {
    this.add(this.mode === "strict" ? "error" : "warning", code, message, line, hint, column);
  }
  error(code: DiagnosticCode, message: string, line?: number, hint?: string, column?: number) {
    this.add("error", code, message, line, hint, column);
  }
  result(skill?: ParseResult["skill"]): ParseResult {
    const failed = this.diagnostics.some((d) => d.severity === "error");
    // Top to bottom, as a reader fixes them (stable: same-line diagnostics keep their order).
    this.diagnostics.sort((a, b) => a.line - b.line);
    return failed || skill === undefined
      ? { diagnostics: this.diagnostics }
      : { skill, diagnostics: this.diagnostics };
  }
}

/** Offsets in the frontmatter YAML → 1-based file lines; the line table is built on first use. */
class Locator {
  private starts: number[] | undefined;
  constructor(
    private readonly yaml: string,
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

  /** The node's line; a missing node (a field that is absent) points at the opening `---`. */
  lineOf(node: { range?: [number, number, number] | null } | null | undefined): number {
    return node?.range ? this.at(node.range[0]).line : 1;
  }
}

export function parseSkill(input: string | Uint8Array, options: ParseOptions = {}): ParseResult {
  const report = new Report(options.path ?? "SKILL.md", options.mode ?? "lenient");
  try {
    return parseInto(report, input, options);
  } catch (error) {
    // Defence in depth: a bug here must cost one skill, never the host.
    report.error("read-error", `could not parse the file: ${(error as Error)?.message ?? String(error)}`);
    return report.result();
  }
}

function parseInto(report: Report, input: string | Uint8Array, options: ParseOptions): ParseResult {
  let text: string;
  let hash: string;
  if (typeof input === "string") {
    text = input;
    hash = sha256(input);
    if (text.includes("\0")) return binary(report);
  } else {
    hash = sha256(input);
    if (input.includes(0)) return binary(report);
    try {
      text = UTF8.decode(input);
    } catch {
      return binary(report, "it is not valid UTF-8 text");
    }
  }
  if (text.charCodeAt(0) === UTF8_BOM) text = text.slice(1);
  if (text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
  if (text.trim() === "") {
    report.error("empty-file", "the file is empty");
    return report.result();
  }

  const split = splitFrontmatter(text);
  if (split.kind === "none") {
    report.error(
      "no-frontmatter",
      "the file does not start with `---` YAML frontmatter, so it has no name or description",
    );
    return report.result();
  }
  if (split.kind === "unclosed") {
    report.error("unclosed-frontmatter", "the frontmatter opened on line 1 is never closed by a `---` line");
    return report.result();
  }

  const locator = new Locator(split.yaml, split.yamlLine);
  const frontmatter = readFrontmatter(report, split.yaml, locator);
  if (frontmatter === undefined) return report.result();

  const folderName = resolveFolderName(options);
  const meta = normalizeMeta(report, frontmatter, locator, folderName);
  if (meta === undefined) return report.result();

  if (report.mode === "strict") {
    const bodyLines = split.body === "" ? 0 : countNewlines(split.body) + 1;
    if (bodyLines > BODY_MAX_LINES) {
      report.add(
        "warning",
        "body-too-long",
        `the body is ${bodyLines} lines; the spec recommends under ${BODY_MAX_LINES}`,
        split.bodyLine,
      );
    }
  }

  return report.result({
    ...meta,
    body: split.body,
    bodyLine: split.bodyLine,
    file: report.file,
    hash,
  });
}

function binary(report: Report, why = "it contains NUL bytes"): ParseResult {
  report.error("binary-file", `the file looks binary: ${why}`);
  return report.result();
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function resolveFolderName(options: ParseOptions): string | undefined {
  if (options.folderName === false) return undefined;
  if (options.folderName !== undefined) return options.folderName;
  if (options.path === undefined) return undefined;
  const folder = basename(dirname(options.path));
  return folder === "" || folder === "." || folder === "/" ? undefined : folder;
}

// ─── YAML ──────────────────────────────────────────────────────────────────────

interface Frontmatter {
  doc: ReturnType<typeof parseDocument>;
  pairs: Array<{ key: string; keyNode: Node | null; value: Node | null }>;
}

function parseYaml(yaml: string) {
  return parseDocument(yaml, {
    // We detect duplicates ourselves (with a deterministic winner) instead of failing the file.
    uniqueKeys: false,
    prettyErrors: false,
  });
}

function readFrontmatter(report: Report, yaml: string, locator: Locator): Frontmatter | undefined {
  let doc = parseYaml(yaml);
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const where = locator.at(first.pos[0]);
    const recovery = report.mode === "lenient" ? quoteColonValues(yaml) : undefined;
    const retried = recovery ? parseYaml(recovery.yaml) : undefined;
    if (recovery === undefined || retried === undefined || retried.errors.length > 0) {
      report.error(
        "yaml-syntax",
        `the frontmatter is not valid YAML: ${first.message}`,
        where.line,
        undefined,
        where.column,
      );
      return undefined;
    }
    doc = retried;
    for (const line of recovery.lines) {
      report.add(
        "warning",
        "yaml-recovered",
        'a value contains ": " and is not quoted; it was read as if quoted',
        locator.at(lineOffset(yaml, line)).line,
      );
    }
  }

  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return { doc, pairs: [] };
  if (!isMap(contents)) {
    report.error(
      "frontmatter-not-mapping",
      `the frontmatter is a ${isScalar(contents) ? "single value" : "list"}, not \`key: value\` fields`,
      locator.lineOf(contents),
    );
    return undefined;
  }
  const pairs: Frontmatter["pairs"] = [];
  for (const pair of contents.items) {
    const keyNode = (pair.key ?? null) as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value ?? "") : keyNode === null ? "" : String(keyNode);
    pairs.push({ key, keyNode, value: (pair.value ?? null) as Node | null });
  }
  return { doc, pairs };
}

function lineOffset(text: string, lineIndex: number): number {
  let offset = 0;
  for (let i = 0; i < lineIndex; i++) offset = text.indexOf("\n", offset) + 1;
  return offset;
}

// ─── Fields ────────────────────────────────────────────────────────────────────

/** What we compare keys by to call them duplicates: case and `_`/`-` do not count. */
function foldKey(key: string): string {
  return key.toLowerCase().replaceAll("_", "-");
}

interface Entry {
  key: string;
  keyNode: Node | null;
  value: Node | null;
  spec: FieldSpec | undefined;
  /** Spelled exactly as documented (not a case variant). */
  exact: boolean;
}

function normalizeMeta(
  report: Report,
  frontmatter: Frontmatter,
  locator: Locator,
  folderName: string | undefined,
): Omit<SkillMeta, never> | undefined {
  // Group the pairs: every spelling of one known field together, unknown keys by folded key.
  const groups = new Map<string, Entry[]>();
  for (const { key, keyNode, value } of frontmatter.pairs) {
    let spec = FIELD_BY_KEY.get(key);
    const exact = spec !== undefined;
    spec ??= FIELD_BY_KEY.get(foldKey(key));
    const id = spec ? `field:${spec.key}` : `key:${foldKey(key)}`;
    const entry: Entry = { key, keyNode, value, spec, exact };
    const group = groups.get(id);
    if (group) group.push(entry);
    else groups.set(id, [entry]);
  }

  const values = new Map<keyof SkillMeta, { value: unknown; entry: Entry }>();
  const extra: Record<string, unknown> = {};
  let aliasFailure = false;

  for (const group of groups.values()) {
    // Deterministic winner: the exactly spelled key, else the first one written.
    const winner = group.find((e) => e.exact) ?? group[0]!;
    for (const loser of group) {
      if (loser === winner) continue;
      report.rule(
        "duplicate-key",
        `\`${loser.key}\` repeats \`${winner.key}\` (line ${locator.lineOf(winner.keyNode)}); using \`${winner.key}\``,
        locator.lineOf(loser.keyNode),
      );
    }

    const line = locator.lineOf(winner.keyNode);
    if (winner.spec === undefined) {
      if (report.mode === "strict") {
        report.error("unknown-field", `\`${winner.key}\` is not a known SKILL.md field`, line);
      }
      const value = toJS(frontmatter, winner.value);
      if (value === ALIAS_FAILURE) aliasFailure = true;
      else defineOwn(extra, winner.key, value);
      continue;
    }

    if (!winner.exact) {
      report.rule(
        "key-case",
        `\`${winner.key}\` is read as \`${winner.spec.key}\``,
        line,
        `Rename \`${winner.key}\` to \`${winner.spec.key}\`; YAML keys are case-sensitive.`,
      );
    }
    const raw = toJS(frontmatter, winner.value, winner.spec.prop !== "priority");
    if (raw === ALIAS_FAILURE) {
      aliasFailure = true;
      continue;
    }
    if (raw === null || raw === undefined) continue; // `key:` with no value = not set
    const parsed = winner.spec.schema.safeParse(raw);
    if (!parsed.success) {
      const critical = winner.spec.prop === "description";
      report.add(
        critical || report.mode === "strict" ? "error" : "warning",
        "invalid-field",
        `\`${winner.key}\` should be ${winner.spec.expects}, not ${describe(raw)}${
          critical ? "" : "; it is ignored"
        }`,
        line,
        `Write \`${winner.spec.key}\` as ${winner.spec.expects}.`,
      );
      continue;
    }
    values.set(winner.spec.prop, { value: parsed.data, entry: winner });
  }

  if (aliasFailure) {
    report.error(
      "yaml-syntax",
      `the frontmatter expands more than ${MAX_YAML_ALIASES} YAML aliases (or one that is undefined)`,
      locator.lineOf(null),
      "Remove the YAML anchors (&) and aliases (*); write the values out.",
    );
    return undefined;
  }

  const get = <T>(prop: keyof SkillMeta): T | undefined => values.get(prop)?.value as T | undefined;
  const lineOfProp = (prop: keyof SkillMeta) => locator.lineOf(values.get(prop)?.entry.keyNode ?? null);

  // description: required; without it the skill cannot be offered, so it is skipped.
  const description = get<string>("description")?.trim() ?? "";
  if (description === "") {
    if (!report.diagnostics.some((d) => d.code === "invalid-field" && d.severity === "error")) {
      const present = values.has("description") || groups.has("field:description");
      report.error(
        "missing-description",
        present ? "`description` is empty" : "the frontmatter has no `description`",
        present
          ? lineOfProp("description") || findLine(groups, locator, "description")
          : locator.lineOf(null),
      );
    }
    return undefined;
  }
  const descriptionLength = codePointLength(description);
  if (descriptionLength > DESCRIPTION_MAX_LENGTH) {
    report.rule(
      "description-too-long",
      `\`description\` is ${descriptionLength} characters; the limit is ${DESCRIPTION_MAX_LENGTH}`,
      lineOfProp("description"),
    );
  }
  if (report.mode === "strict" && (description.includes("<") || description.includes(">"))) {
    report.error(
      "description-angle-brackets",
      "`description` contains `<` or `>`",
      lineOfProp("description"),
    );
  }

  // name: required by the spec; lenient mode falls back to the folder name.
  let name = normalizeName(get<string>("name") ?? "");
  if (name === "") {
    const line = values.has("name") ? lineOfProp("name") : findLine(groups, locator, "name");
    if (report.mode === "lenient" && folderName !== undefined) {
      name = normalizeName(folderName);
      report.add(
        "warning",
        "missing-name",
        `the frontmatter has no \`name\`; using the folder name "${name}"`,
        line,
        `Add \`name: ${suggestName(name) || name}\` to the frontmatter.`,
      );
    } else {
      report.error("missing-name", "the frontmatter has no `name`", line);
      return undefined;
    }
  } else {
    const line = lineOfProp("name");
    for (const problem of checkName(name)) {
      const suggestion = suggestName(name);
      report.rule(
        problem.code,
        problem.message,
        line,
        problem.code === "invalid-name" && suggestion !== ""
          ? `Use only lower-case letters, digits and single hyphens, e.g. \`name: ${suggestion}\` (and a folder of that name).`
          : undefined,
      );
    }
    if (folderName !== undefined && normalizeName(folderName) !== name) {
      report.rule(
        "name-mismatch",
        `\`name\` "${name}" differs from its folder "${folderName}"`,
        line,
        `Rename the folder to "${name}" or set \`name: ${folderName}\`.`,
      );
    }
  }

  const compatibility = get<string>("compatibility");
  if (compatibility !== undefined && codePointLength(compatibility) > COMPATIBILITY_MAX_LENGTH) {
    report.rule(
      "compatibility-too-long",
      `\`compatibility\` is ${codePointLength(compatibility)} characters; the limit is ${COMPATIBILITY_MAX_LENGTH}`,
      lineOfProp("compatibility"),
    );
  }

  const meta: SkillMeta = {
    name,
    description,
    triggers: get<string[]>("triggers") ?? [],
    exclusions: get<string[]>("exclusions") ?? [],
    examples: get<string[]>("examples") ?? [],
    disallowedTools: get<string[]>("disallowedTools") ?? [],
    disableModelInvocation: get<boolean>("disableModelInvocation") ?? false,
    userInvocable: get<boolean>("userInvocable") ?? true,
    arguments: get<string[]>("arguments") ?? [],
    role: get<boolean>("role") ?? false,
    priority: get<number>("priority") ?? 0,
    extra,
  };
  const optional = [
    "license",
    "compatibility",
    "metadata",
    "whenToUse",
    "allowedTools",
    "argumentHint",
    "version",
    "model",
    "group",
  ] as const;
  for (const prop of optional) {
    const value = get<never>(prop);
    if (value !== undefined) meta[prop] = value;
  }
  return meta;
}

function findLine(groups: Map<string, Entry[]>, locator: Locator, field: string): number {
  const entry = groups.get(`field:${field}`)?.[0];
  return locator.lineOf(entry?.keyNode ?? null);
}

const ALIAS_FAILURE = Symbol("alias-failure");

/**
 * A pair's value as plain JS. Numbers keep their source spelling when text is wanted
 * (`version: 1.10` is "1.10", not 1.1). Alias expansion is capped (billion laughs).
 */
function toJS(frontmatter: Frontmatter, node: Node | null, keepNumberSource = false): unknown {
  if (node === null) return null;
  if (isScalar(node)) {
    const scalar = node as Scalar;
    if (keepNumberSource && typeof scalar.value === "number" && scalar.source !== undefined)
      return scalar.source;
    return scalar.value;
  }
  try {
    return node.toJS(frontmatter.doc, { maxAliasCount: MAX_YAML_ALIASES });
  } catch {
    return ALIAS_FAILURE;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "empty";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}
