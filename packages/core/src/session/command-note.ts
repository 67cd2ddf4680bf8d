/**
 * The note a refused "/name args" leaves in the system text for the rest of its turn. The
 * refusal is the user's, not the model's, so without it the model would never learn that
 * the command did not run (a host may show `plan.explicit`, but the model reads only the
 * prompt) and would carry on as if the skill were loaded.
 */
import type { ActivationResult } from "../types.js";

const MAX_COMMAND_LENGTH = 200;

export type Refusal = Extract<ActivationResult, { status: "error" }>;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** `<skill_command_refused command="…" error_type="…">what happened and what to tell the user</skill_command_refused>` */
export function commandNote(command: string, refusal: Pick<Refusal, "error_type" | "message">): string {
  const typed = escapeAttribute(clip(command, MAX_COMMAND_LENGTH));
  return `<skill_command_refused command="${typed}" error_type="${refusal.error_type}">\n${refusal.message}\n</skill_command_refused>`;
}
