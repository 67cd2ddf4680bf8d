/**
 * The files a host reports as touched by the conversation (an adapter's `files` option),
 * read the same way in every adapter. A host callback that throws or returns something other
 * than a list must not take the turn down: the call is planned without host files, so a
 * `paths` skill is offered only on a path the message itself mentions, and a warning says so.
 */
import type { Diagnostic } from "../types.js";

export function reportedFiles<A>(
  files: ((arg: A) => readonly string[] | undefined) | undefined,
  arg: A,
  report: (diagnostic: Diagnostic) => void,
): readonly string[] | undefined {
  if (!files) return undefined;
  let listed: unknown;
  try {
    listed = files(arg);
  } catch (error) {
    report({
      severity: "warning",
      code: "plan-fallback",
      message: `The adapter's files option threw (${error instanceof Error ? error.message : String(error)}): this model call is planned without the host's files.`,
      file: "",
      line: 1,
      hint: "Make files(…) return the paths the conversation touched, or [] when there are none.",
    });
    return undefined;
  }
  if (!Array.isArray(listed)) return undefined;
  return listed.filter((f): f is string => typeof f === "string" && f !== "");
}
