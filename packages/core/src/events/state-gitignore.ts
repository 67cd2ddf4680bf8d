/**
 * The state folder (`<project>/.skillshelf`) sits beside the skills users commit, so its
 * runtime state must not be committed by accident: the event log and proposals quote user
 * messages and transcripts, and usage, locks and temp files are per-machine noise. History
 * and the ledger are left in: they are copies of skill files and the record of who changed
 * them, as reviewable as the skills themselves.
 *
 * Written once when missing (never rewritten: a user's own edits to it stand).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const STATE_GITIGNORE = `# Written by skillshelf: runtime state that is per machine or quotes conversations.
# History (history/) and the decision ledger (ledger.jsonl) are meant to be committed.
events*.jsonl
events*.jsonl.*
usage.json
usage.json.*
improvements/
workflows/
*.lock
*.tmp
`;

const done = new Set<string>();

/** Creates `dir` if needed and a `.gitignore` in it if it has none. Never throws. */
export function ensureStateFolder(dir: string): void {
  const resolved = path.resolve(dir);
  if (done.has(resolved)) return;
  try {
    mkdirSync(resolved, { recursive: true });
    // "wx": an existing .gitignore (the user's, or ours) is left exactly as it is.
    writeFileSync(path.join(resolved, ".gitignore"), STATE_GITIGNORE, { flag: "wx" });
  } catch {
    // exists already, or the folder is not writable: the write that follows reports that
  }
  done.add(resolved);
}
