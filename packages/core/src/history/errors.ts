/**
 * The one error type managed writes throw. `code` is stable (switch on it); `message`
 * says what happened and what to do next; `details` carries the facts (hashes, paths).
 */
export type SkillWriteErrorCode =
  /** The file changed since the caller read it (compare-and-swap failed). Re-read, re-apply, retry. */
  | "CONFLICT"
  /** No skill by that name, or no kept version matching a reference. */
  | "NOT_FOUND"
  /** A builtin skill (defined in code) or a skill without a file. */
  | "NOT_WRITABLE"
  /** The new content does not parse as a SKILL.md. */
  | "INVALID"
  /** The new content names a different skill. */
  | "NAME_CHANGED"
  /** A version reference matches more than one kept version. */
  | "AMBIGUOUS"
  /** Another writer held the lock for longer than we were willing to wait. */
  | "LOCKED"
  /** The lock was lost mid-write (e.g. the process stalled past the stale threshold); nothing was written. */
  | "LOCK_COMPROMISED";

export class SkillWriteError extends Error {
  override readonly name = "SkillWriteError";
  constructor(
    readonly code: SkillWriteErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isSkillWriteError(error: unknown, code?: SkillWriteErrorCode): error is SkillWriteError {
  return error instanceof SkillWriteError && (code === undefined || error.code === code);
}
