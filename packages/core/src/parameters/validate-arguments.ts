/**
 * Checking an activation's arguments against its skill's parameter schema, before anything
 * of the skill is loaded. What comes back is either the arguments with the schema's defaults
 * filled in, or the structured refusal the model reads instead of the skill: the fields that
 * are wrong, what was wrong, and what to send. The workflow runner calls the same function for
 * the arguments it passes to steps.
 */
import type { Skill } from "../types.js";
import { MAX_ARGUMENTS_LENGTH, MAX_REPORTED_PROBLEMS } from "./limits.js";
import { argumentProblems } from "./problems.js";
import { skillParameters } from "./skill-parameters.js";
import type { ArgumentProblem, ArgumentsCheck, InvalidArgumentsResult } from "./types.js";

type ParameterSkill = Pick<Skill, "name" | "file" | "dir" | "parameters">;

function refusal(skill: ParameterSkill, errors: ArgumentProblem[], lead?: string): ArgumentsCheck {
  const listed = errors
    .map((e) => `${e.field || "(arguments)"}: ${e.problem}; send ${e.expected}`)
    .join(". ");
  const result: InvalidArgumentsResult = {
    status: "error",
    error_type: "INVALID_ARGUMENTS",
    message:
      `${lead ?? `The arguments for "${skill.name}" do not fit its parameters, so the skill was not activated.`} ` +
      `${listed}. Call the tool again with corrected arguments, taken from the user's current request` +
      " (ask the user if it does not say).",
    errors,
  };
  return { ok: false, result };
}

function readObject(input: unknown): Record<string, unknown> | string {
  let value = input;
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") return {};
    try {
      value = JSON.parse(text);
    } catch {
      return "the arguments are not a JSON object";
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) return "the arguments must be a JSON object";
  return value as Record<string, unknown>;
}

/**
 * Checks `input` (an object, or its JSON text) against the skill's parameters. A skill
 * without parameters accepts any object unchanged; one whose schema is broken accepts nothing.
 */
export function validateArguments(skill: ParameterSkill, input: unknown): ArgumentsCheck {
  const object = readObject(input);
  if (typeof object === "string") {
    return refusal(skill, [{ field: "", problem: object, expected: "an object of the skill's arguments" }]);
  }
  let text: string;
  try {
    text = JSON.stringify(object);
  } catch {
    return refusal(skill, [
      { field: "", problem: "the arguments are not plain JSON", expected: "a JSON object" },
    ]);
  }
  if (text.length > MAX_ARGUMENTS_LENGTH) {
    return refusal(skill, [
      {
        field: "",
        problem: `the arguments are ${text.length} characters of JSON`,
        expected: `at most ${MAX_ARGUMENTS_LENGTH} characters: only the values the request gives`,
      },
    ]);
  }
  const report = skillParameters(skill);
  if (report.broken) {
    const reason = report.diagnostics.find((d) => d.severity === "error")?.message ?? "its schema is invalid";
    return refusal(
      skill,
      [
        {
          field: "",
          problem: `the skill's parameter schema is broken: ${reason}`,
          expected: "another skill, or none",
        },
      ],
      `"${skill.name}" cannot be activated: its parameter schema is broken, so no arguments can be checked.`,
    );
  }
  // A fresh copy: defaults are written into it, and the caller's object stays as it was.
  const values = JSON.parse(text) as Record<string, unknown>;
  if (!report.parameters) return { ok: true, values };
  const validate = report.parameters.validate;
  if (validate(values)) return { ok: true, values };
  return refusal(skill, argumentProblems(validate.errors ?? [], values, MAX_REPORTED_PROBLEMS));
}

/**
 * Arguments a user typed after `/name`: a JSON object, or `key=value` words (a value that
 * reads as JSON — `10`, `true`, `"a b"` — is taken as that, anything else as text).
 */
export function argumentsFromText(text: string, split: (text: string) => string[]): unknown {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.startsWith("{")) return trimmed;
  const values: Record<string, unknown> = {};
  for (const word of split(trimmed)) {
    const eq = word.indexOf("=");
    if (eq <= 0) return trimmed; // not key=value: the check says it is not an object
    const raw = word.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    Object.defineProperty(values, word.slice(0, eq), {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return values;
}

/**
 * The checked arguments an activation recorded (their JSON in `args`), for a skill with
 * parameters; undefined for any other skill, or when `args` is not such an object.
 */
export function recordedArguments(
  skill: ParameterSkill,
  args: string | undefined,
): Record<string, unknown> | undefined {
  if (args === undefined || !args.trimStart().startsWith("{")) return undefined;
  if (!skillParameters(skill).parameters) return undefined;
  try {
    const value = JSON.parse(args) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The arguments an activation's recorded result carries (`data.arguments`), as the JSON an
 * active skill keeps, when they are a plain object within the size an activation accepts; a
 * history is replayed as it happened, but never as a way to hand a skill a megabyte of input.
 */
export function recordedArgumentsText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return text !== undefined && text.length <= MAX_ARGUMENTS_LENGTH ? text : undefined;
}
