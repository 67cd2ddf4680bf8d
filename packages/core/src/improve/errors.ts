/**
 * Errors of the improvement loop. Every one means nothing was written; `code` is stable,
 * `message` says what to do next, `details` carries the facts (raw model output,
 * guard violations, hashes).
 */
export type ImproveErrorCode =
  /** The model's answer is not JSON, or not the JSON the schema asks for. */
  | "INVALID_MODEL_OUTPUT"
  /** No proposal (or skill) by that id/name. */
  | "NOT_FOUND"
  /** The id prefix matches more than one proposal. */
  | "AMBIGUOUS"
  /** The proposal was already accepted or rejected. */
  | "NOT_PENDING"
  /** The skill changed since the proposal was made, and the proposal's target text is gone. */
  | "STALE"
  /** The merged skill breaks a guard (drift, bloat, rewrite size, permissions, parse). */
  | "GUARD_FAILED"
  /** The proposal can only be merged by a model, and no `generate` was given. */
  | "NEEDS_MODEL"
  /** A stored proposal record could not be read. */
  | "INVALID_RECORD";

export class ImproveError extends Error {
  override readonly name = "ImproveError";
  constructor(
    readonly code: ImproveErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
