/**
 * The validator's errors, said for a model: which argument, what was wrong with what it sent,
 * and what to send instead (seed 001's "friendly regenerate instruction"). The `expected` text
 * comes from the schema itself (its enum, format, bounds, description), so it names the exact
 * values the model may use.
 */

import type { ArgumentProblem } from "./types.js";
import type { ErrorObject } from "./validator.js";

const FORMATS: Readonly<Record<string, string>> = {
  date: "a date as YYYY-MM-DD",
  time: "a time as HH:MM:SS",
  "date-time": "a date and time as YYYY-MM-DDTHH:MM:SSZ (RFC 3339)",
  email: "an e-mail address",
  uri: "an absolute URI (https://…)",
  uuid: "a UUID",
  ipv4: "an IPv4 address",
  hostname: "a host name",
};

function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required" && typeof params.missingProperty === "string")
    parts.push(params.missingProperty);
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    parts.push(params.additionalProperty);
  }
  return parts.join(".");
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function describe(schema: unknown): string {
  const description = (schema as { description?: unknown } | undefined)?.description;
  return typeof description === "string" && description.trim() !== "" ? ` (${description.trim()})` : "";
}

function valueAt(data: unknown, instancePath: string): unknown {
  let value = data;
  for (const part of instancePath.split("/").slice(1)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return value;
}

function propertyOf(objectSchema: unknown, name: unknown): unknown {
  const properties = (objectSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties && typeof name === "string" && Object.hasOwn(properties, name)
    ? properties[name]
    : undefined;
}

/** What a value of `schema` looks like, for an argument the model left out. */
function valueShape(schema: unknown): string {
  const s = (schema ?? {}) as { enum?: unknown[]; format?: unknown; type?: unknown };
  const shape = Array.isArray(s.enum)
    ? `one of ${s.enum.map(shown).join(", ")}`
    : typeof s.format === "string" && FORMATS[s.format]
      ? FORMATS[s.format]!
      : typeof s.type === "string"
        ? `a ${s.type}`
        : "a value";
  return `${shape}${describe(schema)}`;
}

function expectation(error: ErrorObject, propertySchema: unknown): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "enum":
      return `one of ${(params.allowedValues as unknown[]).map(shown).join(", ")}`;
    case "const":
      return `exactly ${shown(params.allowedValue)}`;
    case "format":
      return FORMATS[String(params.format)] ?? `a value in the "${String(params.format)}" format`;
    case "type":
      return `a value of type ${String(params.type)}`;
    case "required":
      return `a value for "${String(params.missingProperty)}": ${valueShape(propertyOf(propertySchema, params.missingProperty))}`;
    case "additionalProperties":
      return "only the arguments the tool's schema lists";
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "pattern":
    case "multipleOf":
      return `a value that ${error.message ?? "fits the schema"}`;
    default:
      return `a value that fits the schema${describe(propertySchema)}`;
  }
}

function problemOf(error: ErrorObject, data: unknown): string {
  if (error.keyword === "required") return "it is missing";
  if (error.keyword === "additionalProperties") return "the skill takes no such argument";
  const value = valueAt(data, error.instancePath);
  return `${shown(value)} ${error.message ?? "does not fit the schema"}`;
}

/** One problem per argument (the first error about it), in the order the validator found them. */
export function argumentProblems(
  errors: readonly ErrorObject[],
  data: unknown,
  limit: number,
): ArgumentProblem[] {
  const seen = new Set<string>();
  const problems: ArgumentProblem[] = [];
  // A failed `anyOf`/`oneOf` also reports each branch's errors; the branches say more.
  const useful = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "if");
  for (const error of useful.length > 0 ? useful : errors) {
    const field = fieldOf(error);
    if (seen.has(field)) continue;
    seen.add(field);
    const propertySchema = error.parentSchema;
    problems.push({
      field,
      problem: problemOf(error, data),
      expected: `${expectation(error, propertySchema)}${error.keyword === "format" || error.keyword === "enum" ? describe(propertySchema) : ""}`,
    });
    if (problems.length >= limit) break;
  }
  return problems;
}
