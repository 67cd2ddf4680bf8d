/**
 * The vocabulary of typed skill parameters: the schema a skill declares, what a check of
 * arguments against it returns, and the structured refusal the model reads when its
 * arguments do not fit.
 */

/** A JSON Schema object (draft-07) describing a skill's arguments; its root is `type: "object"`. */
export type ParameterSchema = Record<string, unknown>;

/** Where a skill's parameter schema came from. */
export type ParameterSource = "schema.json" | "frontmatter";

export type { ArgumentProblem, InvalidArgumentsResult } from "../types.js";

import type { InvalidArgumentsResult } from "../types.js";

/** The arguments checked against the skill's schema, defaults filled in. */
export interface ValidArguments {
  ok: true;
  /** Plain JSON: the arguments as sent, plus the schema's defaults for what was left out. */
  values: Record<string, unknown>;
}

export type ArgumentsCheck = ValidArguments | { ok: false; result: InvalidArgumentsResult };
