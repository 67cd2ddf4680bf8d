/**
 * The checks a parameter schema must pass before a validator compiles it: small, shallow,
 * an object at the root, and every `$ref` pointing inside the schema itself. A reference to
 * anything else (`https://…`, `other.json`, `file:…`) is refused here, so nothing is ever
 * fetched or read on a schema's behalf.
 */
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "./limits.js";

/** One problem in a schema, at a JSON pointer into it ("" is the root). */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first problems (at most a few) that keep `schema` from being compiled, or [] when it may be. */
export function schemaShapeProblems(schema: unknown): SchemaProblem[] {
  if (!isObject(schema)) return [{ pointer: "", message: "the parameter schema must be a JSON object" }];
  const problems: SchemaProblem[] = [];
  if (schema.type !== "object") {
    problems.push({
      pointer: "/type",
      message: 'the parameter schema must have `"type": "object"` at its root (the arguments are one object)',
    });
  }
  if ("$schema" in schema && !isDraft07(schema.$schema)) {
    problems.push({
      pointer: "/$schema",
      message: `\`$schema\` ${JSON.stringify(schema.$schema)} is not supported: parameter schemas are JSON Schema draft-07 (leave \`$schema\` out)`,
    });
  }
  let nodes = 0;
  const visit = (value: unknown, pointer: string, depth: number): void => {
    if (problems.length >= 5) return;
    nodes++;
    if (nodes > MAX_SCHEMA_NODES) {
      if (nodes === MAX_SCHEMA_NODES + 1)
        problems.push({ pointer, message: `the schema has more than ${MAX_SCHEMA_NODES} values` });
      return;
    }
    if (typeof value !== "object" || value === null) return;
    if (depth > MAX_SCHEMA_DEPTH) {
      problems.push({ pointer, message: `the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels` });
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, `${pointer}/${i}`, depth + 1);
      return;
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      const at = `${pointer}/${escapePointer(key)}`;
      if (key === "$ref" && typeof child === "string" && !child.startsWith("#")) {
        problems.push({
          pointer: at,
          message: `\`$ref\` ${JSON.stringify(child)} points outside this schema; only local references ("#/definitions/…") are resolved, nothing is fetched`,
        });
      } else if (key === "$id" && typeof child === "string" && pointer !== "" && !child.startsWith("#")) {
        problems.push({
          pointer: at,
          message: `\`$id\` ${JSON.stringify(child)} inside the schema would change what its references resolve against; remove it`,
        });
      }
      visit(child, at, depth + 1);
    }
  };
  visit(schema, "", 0);
  return problems;
}

const DRAFT_07 = new Set([
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
]);

function isDraft07(value: unknown): boolean {
  return typeof value === "string" && DRAFT_07.has(value);
}
