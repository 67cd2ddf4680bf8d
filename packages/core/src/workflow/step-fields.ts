/**
 * Reading the `steps:` frontmatter field (seed 004's chapters) into WorkflowStep objects,
 * and saying exactly what is wrong with it when it cannot be read. Pure: the step prompt
 * files are checked against the disk separately (step-files.ts).
 */
import type { SkillMeta, WorkflowStep } from "../types.js";

/** Step ids are file-name parts (`steps/01-<id>.md`) and object keys: keep them plain. */
const STEP_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Contract field names travel as JSON keys and prompt headings. */
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);
const FIELD_NAME = { test: (name: string) => NAME_PATTERN.test(name) && !RESERVED_NAMES.has(name) };
/** More steps than this is not a workflow a person reviewed. */
export const MAX_STEPS = 50;
/** A step may run at most this long (seconds): a longer limit is a mistake, not a plan. */
export const MAX_STEP_TIMEOUT_SECONDS = 24 * 60 * 60;
export const MAX_STEP_RETRIES = 10;
const MAX_TEXT = 2_000;

const STEP_KEYS = new Set([
  "id",
  "title",
  "input",
  "output",
  "verify",
  "timeout",
  "retries",
  "run",
  "max-output",
  "max_output",
]);

export interface StepsReading {
  steps?: WorkflowStep[];
  problems: string[];
}

function isMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function text(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** `300`, `"300"`, `"300s"`, `"5m"`, `"1h"` → seconds. */
export function readSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?\s*$/i.exec(value);
  if (!match) return undefined;
  const unit = (match[2] ?? "s").toLowerCase();
  const seconds = Number(match[1]) * (unit.startsWith("h") ? 3600 : unit.startsWith("m") ? 60 : 1);
  return seconds > 0 ? seconds : undefined;
}

export function readCount(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 0 ? number : undefined;
}

/** `[a, b]`, or one string `a, b` / `a b`. */
function names(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/[\s,]+/).filter((s) => s !== "");
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    const name = text(item);
    if (name === undefined) return undefined;
    if (name !== "") out.push(name);
  }
  return out;
}

/** The `steps:` value as YAML means it → steps, or every reason it cannot be used. */
export function readSteps(value: unknown): StepsReading {
  if (!Array.isArray(value)) return { problems: ["`steps` must be a list of steps"] };
  if (value.length === 0) return { problems: ["`steps` is an empty list"] };
  if (value.length > MAX_STEPS) {
    return { problems: [`\`steps\` has ${value.length} steps; at most ${MAX_STEPS} are allowed`] };
  }
  const problems: string[] = [];
  const steps: WorkflowStep[] = [];
  const ids = new Set<string>();
  const outputs = new Set<string>();
  value.forEach((item, index) => {
    const where = `step ${index + 1}`;
    if (!isMapping(item)) {
      problems.push(`${where} must be a mapping with \`id\`, \`title\`, \`input\`, \`output\``);
      return;
    }
    const id = text(item.id);
    const label = id ? `${where} (\`${id}\`)` : where;
    if (!id) problems.push(`${where} has no \`id\``);
    else if (!STEP_ID.test(id)) {
      problems.push(
        `${label}: the id must be lower-case letters, digits, \`-\` or \`_\` (it names steps/NN-<id>.md)`,
      );
    } else if (ids.has(id)) problems.push(`${label}: the id \`${id}\` is used by an earlier step`);
    else ids.add(id);

    for (const key of Object.keys(item)) {
      if (!STEP_KEYS.has(key)) problems.push(`${label}: \`${key}\` is not a step field`);
    }
    const output = text(item.output);
    if (!output) problems.push(`${label} has no \`output\` (the name later steps read its result by)`);
    else if (!FIELD_NAME.test(output))
      problems.push(`${label}: \`output\` must be a plain name, not "${output}"`);
    else if (outputs.has(output))
      problems.push(`${label}: \`output\` \`${output}\` is produced by an earlier step`);
    else outputs.add(output);

    const input = names(item.input);
    if (input === undefined) problems.push(`${label}: \`input\` must be a list of names`);
    else {
      for (const name of input) {
        if (!FIELD_NAME.test(name)) problems.push(`${label}: input "${name}" is not a plain name`);
      }
    }
    const title = item.title === undefined ? id : text(item.title);
    if (title === undefined) problems.push(`${label}: \`title\` must be text`);
    const verify = item.verify === undefined || item.verify === null ? undefined : text(item.verify);
    if (item.verify !== undefined && item.verify !== null && verify === undefined) {
      problems.push(`${label}: \`verify\` must be text (a check's name, or what must hold)`);
    }
    for (const [key, value] of [
      ["title", title],
      ["verify", verify],
    ] as const) {
      if (value !== undefined && value.length > MAX_TEXT)
        problems.push(`${label}: \`${key}\` is over ${MAX_TEXT} characters`);
    }
    const step: WorkflowStep = {
      id: id ?? "",
      title: title ?? id ?? "",
      input: input ?? [],
      output: output ?? "",
    };
    if (verify) step.verify = verify;
    if (item.timeout !== undefined) {
      const seconds = readSeconds(item.timeout);
      if (seconds === undefined || seconds > MAX_STEP_TIMEOUT_SECONDS) {
        problems.push(
          `${label}: \`timeout\` must be a number of seconds between 0 and ${MAX_STEP_TIMEOUT_SECONDS} (e.g. 300 or "5m")`,
        );
      } else step.timeout = seconds;
    }
    if (item.retries !== undefined) {
      const retries = readCount(item.retries);
      if (retries === undefined || retries > MAX_STEP_RETRIES) {
        problems.push(`${label}: \`retries\` must be a whole number from 0 to ${MAX_STEP_RETRIES}`);
      } else step.retries = retries;
    }
    const maxOutput = item["max-output"] ?? item.max_output;
    if (maxOutput !== undefined) {
      const limit = readCount(maxOutput);
      if (limit === undefined || limit < 1)
        problems.push(`${label}: \`max-output\` must be a positive number of characters`);
      else step.maxOutput = limit;
    }
    if (item.run !== undefined) {
      const run = text(item.run);
      if (!run || !/^(model|tool:[A-Za-z0-9_.:-]{1,128}|[A-Za-z0-9_.-]{1,128})$/.test(run)) {
        problems.push(
          `${label}: \`run\` must be \`model\`, \`tool:<tool name>\` or the name of a function the host registered`,
        );
      } else if (run !== "model") step.run = run;
    }
    steps.push(step);
  });
  return problems.length > 0 ? { problems } : { steps, problems };
}

/** The names a skill's user supplies: `arguments`, a `parameters` schema's properties, and the raw `args`. */
export function parameterNames(meta: Pick<SkillMeta, "arguments"> & { parameters?: unknown }): Set<string> {
  const names = new Set<string>(["args", ...meta.arguments]);
  const parameters = meta.parameters as { properties?: unknown } | undefined;
  if (isMapping(parameters) && isMapping(parameters.properties)) {
    for (const key of Object.keys(parameters.properties)) names.add(key);
  }
  return names;
}

/**
 * The contract between steps: every input is a user parameter or an earlier step's
 * output. (A later step's output is not yet there when the step runs.) `parameters` are the
 * user's names; without them only what the file alone decides is checked — a later step's
 * output read early — since a `schema.json` beside SKILL.md may name more parameters.
 */
export function contractProblems(meta: Pick<SkillMeta, "steps">, parameters?: ReadonlySet<string>): string[] {
  if (!meta.steps) return [];
  const available = new Set(parameters ?? []);
  const later = new Set(meta.steps.map((s) => s.output));
  const problems: string[] = [];
  for (const [index, step] of meta.steps.entries()) {
    for (const input of step.input) {
      if (available.has(input)) continue;
      if (later.has(input)) {
        problems.push(
          `step ${index + 1} (\`${step.id}\`) reads \`${input}\`, which only a later step produces`,
        );
      } else if (parameters) {
        problems.push(
          `step ${index + 1} (\`${step.id}\`) reads \`${input}\`, which no earlier step produces and the skill's parameters do not name`,
        );
      }
    }
    available.add(step.output);
  }
  return problems;
}

/** The prompt file of step `index` (0-based): `steps/01-analyze.md`. */
export function stepFileName(index: number, id: string): string {
  return `steps/${String(index + 1).padStart(2, "0")}-${id}.md`;
}
