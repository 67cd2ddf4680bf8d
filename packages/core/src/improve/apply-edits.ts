/**
 * Deterministic edits: each proposal carries exact `before` → `after` text replacements,
 * so accepting it needs no model and does exactly what the user reviewed. Each `before`
 * must occur exactly once in the text it is applied to (edits apply in order).
 */
export interface TextEdit {
  /** Exact text of the current SKILL.md to replace; must occur exactly once. */
  before: string;
  /** Replacement ("" removes the text). */
  after: string;
}

export interface EditProblem {
  index: number;
  kind: "not-found" | "ambiguous";
  before: string;
}

export type ApplyResult = { ok: true; text: string } | { ok: false; problems: EditProblem[] };

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1 && count < 2; i = text.indexOf(needle, i + needle.length))
    count++;
  return count;
}

export function applyEdits(text: string, edits: readonly TextEdit[]): ApplyResult {
  const crlf = text.includes("\r\n");
  const problems: EditProblem[] = [];
  let result = text;
  edits.forEach((edit, index) => {
    let { before, after } = edit;
    // Models quote with "\n"; a CRLF file still matches.
    if (crlf && !result.includes(before) && result.includes(before.replace(/\r?\n/g, "\r\n"))) {
      before = before.replace(/\r?\n/g, "\r\n");
      after = after.replace(/\r?\n/g, "\r\n");
    }
    const count = before === "" ? 0 : occurrences(result, before);
    if (count !== 1) {
      problems.push({ index, kind: count === 0 ? "not-found" : "ambiguous", before: edit.before });
      return;
    }
    const at = result.indexOf(before);
    result = result.slice(0, at) + after + result.slice(at + before.length);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, text: result };
}

/**
 * Whether the edits are already in `text` (every non-empty `after` present, every `before`
 * that is not part of its `after` gone): a proposal accepted by a process that crashed
 * before it could mark the proposal.
 */
export function editsAlreadyApplied(text: string, edits: readonly TextEdit[]): boolean {
  const normalised = text.replace(/\r\n/g, "\n");
  return edits.every(
    (e) =>
      (e.after === "" || normalised.includes(e.after)) &&
      (e.after.includes(e.before) || !normalised.includes(e.before)),
  );
}
