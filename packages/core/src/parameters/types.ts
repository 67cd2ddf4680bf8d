/**
 * The vocabulary of typed skill parameters: the schema a skill declares, what a check of
 * arguments against it returns, and the structured refusal the model reads when its
 * arguments do not fit.
 */

/** A JSON Schema object (draft-07) describing a skill's arguments; its root is `type: "object"`. */
export type ParameterSchema = Record<string, unknown>;

/** Where a skill's parameter schema came from. */
export type ParameterSource = "schema.json" | "frontmatter";

/** One argument that does not fit, said so the model can send the right value instead. */
export interface ArgumentProblem {
  /** The argument, as a dotted path (`time_range`, `filters.0.field`); "" for the whole object. */
  field: string;
  /** What is wrong with the value that was sent. */
  problem: string;
  /** What to send instead. */
  expected: string;
}

/** The result an activation with arguments that do not fit its schema gets; the skill is not activated. */
export interface InvalidArgumentsResult {
  status: "error";
  error_type: "INVALID_ARGUMENTS";
  message: string;
  errors: ArgumentProblem[];
}

/** The arguments checked against the skill's schema, defaults filled in. */
export interface ValidArguments {
  ok: true;
  /** Plain JSON: the arguments as sent, plus the schema's defaults for what was left out. */
  values: Record<string, unknown>;
}

export type ArgumentsCheck = ValidArguments | { ok: false; result: InvalidArgumentsResult };
