/**
 * A skill's parameters: the JSON Schema from `schema.json` beside its SKILL.md (the seed's
 * layout) or from its `parameters:` frontmatter field, checked and compiled once per loaded
 * skill. When both are there, `schema.json` wins whole (it is the file made for checking
 * arguments) and a warning says the frontmatter copy is ignored: merging two schemas would
 * make neither file say what the skill accepts.
 *
 * A skill whose schema cannot be used is not half-working: it is `broken`, and activating it
 * is refused with the diagnostic's reason (it never runs with unchecked arguments).
 */
import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { diagnostic } from "../diagnostic.js";
import type { Diagnostic, Skill } from "../types.js";
import { MAX_SCHEMA_BYTES } from "./limits.js";
import { lineInFrontmatter, lineInSchemaFile, lineOfJsonError } from "./locate.js";
import { schemaShapeProblems } from "./schema-shape.js";
import type { ParameterSchema, ParameterSource } from "./types.js";
import { compileSchema, type ValidateFunction } from "./validator.js";

export const SCHEMA_FILE = "schema.json";

export interface SkillParameters {
  schema: ParameterSchema;
  source: ParameterSource;
  /** The file the schema is in (`schema.json`, or SKILL.md for the frontmatter field). */
  file: string;
  validate: ValidateFunction;
}

export interface ParameterReport {
  /** Undefined when the skill declares no parameters, or when they are broken. */
  parameters?: SkillParameters;
  /** The skill declares parameters that cannot be used: it must not be activated. */
  broken: boolean;
  diagnostics: Diagnostic[];
}

type ParameterSkill = Pick<Skill, "file" | "dir" | "parameters">;

const NONE: ParameterReport = Object.freeze({ broken: false, diagnostics: [] }) as ParameterReport;
const reports = new WeakMap<object, ParameterReport>();

/** The skill's parameters, checked (cached per loaded skill object: a new file version is a new object). */
export function skillParameters(skill: ParameterSkill): ParameterReport {
  let report = reports.get(skill);
  if (!report) {
    report = readParameters(skill);
    reports.set(skill, report);
  }
  return report;
}

/** Does the skill take typed arguments (a usable or a broken schema)? */
export function declaresParameters(skill: ParameterSkill): boolean {
  const report = skillParameters(skill);
  return report.parameters !== undefined || report.broken;
}

type Found =
  | { kind: "none" }
  | { kind: "value"; value: unknown; text?: string }
  | { kind: "problem"; diagnostic: Diagnostic };

function readSchemaFile(dir: string): Found {
  const file = path.join(dir, SCHEMA_FILE);
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(file);
  } catch {
    return { kind: "none" };
  }
  const refuse = (message: string, line?: number): Found => ({
    kind: "problem",
    diagnostic: diagnostic({ severity: "error", code: "invalid-parameters", message, file, line }),
  });
  // A link could point anywhere (another user's file, a device): the schema must be the skill's own.
  if (stat.isSymbolicLink())
    return refuse("schema.json is a symbolic link; it must be a regular file in the skill folder");
  if (!stat.isFile()) return refuse("schema.json is not a regular file");
  if (stat.size > MAX_SCHEMA_BYTES) {
    return refuse(
      `schema.json is ${stat.size} bytes; a parameter schema may have at most ${MAX_SCHEMA_BYTES}`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return refuse(`schema.json could not be read: ${(error as Error).message}`);
  }
  if (text.length > MAX_SCHEMA_BYTES) return refuse("schema.json grew past the size limit while it was read");
  try {
    return { kind: "value", value: JSON.parse(text), text };
  } catch (error) {
    return refuse(`schema.json is not valid JSON: ${(error as Error).message}`, lineOfJsonError(text, error));
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function readParameters(skill: ParameterSkill): ParameterReport {
  const fromFile = skill.dir ? readSchemaFile(skill.dir) : ({ kind: "none" } as Found);
  const inline = skill.parameters;
  if (fromFile.kind === "none" && inline === undefined) return NONE;
  if (fromFile.kind === "problem") return { broken: true, diagnostics: [fromFile.diagnostic] };

  const diagnostics: Diagnostic[] = [];
  const useFile = fromFile.kind === "value";
  const schemaFile = skill.dir ? path.join(skill.dir, SCHEMA_FILE) : skill.file;
  if (useFile && inline !== undefined && !sameJson(inline, fromFile.value)) {
    diagnostics.push(
      diagnostic({
        severity: "warning",
        code: "parameters-conflict",
        message:
          "the skill has both schema.json and a `parameters:` field, and they differ; schema.json is used",
        file: skill.file,
        line: lineInFrontmatter(skill.file, ""),
      }),
    );
  }
  const value = useFile ? fromFile.value : inline;
  const file = useFile ? schemaFile : skill.file;
  const lineOf = (pointer: string): number | undefined =>
    useFile ? lineInSchemaFile(fromFile.text ?? "", pointer) : lineInFrontmatter(skill.file, pointer);
  const where = (pointer: string) => (useFile ? ` (at ${pointer || "/"})` : ` (parameters${pointer})`);

  const problems = schemaShapeProblems(value);
  if (problems.length > 0) {
    for (const problem of problems) {
      diagnostics.push(
        diagnostic({
          severity: "error",
          code: "invalid-parameters",
          message: `${problem.message}${where(problem.pointer)}`,
          file,
          line: lineOf(problem.pointer),
        }),
      );
    }
    return { broken: true, diagnostics };
  }
  const schema = value as ParameterSchema;
  const compiled = compileSchema(schema);
  if (!compiled.ok) {
    diagnostics.push(
      diagnostic({
        severity: "error",
        code: "invalid-parameters",
        message: `the parameter schema is refused: ${compiled.message}`,
        file,
        line: lineOf(compiled.pointer ?? ""),
      }),
    );
    return { broken: true, diagnostics };
  }
  return {
    parameters: {
      schema,
      source: useFile ? "schema.json" : "frontmatter",
      file,
      validate: compiled.validate,
    },
    broken: false,
    diagnostics,
  };
}
