/**
 * The history-pollution guard (seed 001 §5.4): a model filling a skill's parameters reads the
 * whole conversation, and an earlier "last three months" leaks into this request's "this
 * month". Core cannot rewrite a framework's messages, so the plan's system text tells the model
 * to take parameters from the current request only and quotes that request, set apart from the
 * history, the same way in every adapter.
 */

/** Longest part of the current request quoted (a pasted document is the request's topic, not its parameters). */
const MAX_QUOTED = 2_000;

/** Our own tags in quoted text are neutralised, so a message cannot close the block and add its own. */
function escapeQuoted(text: string): string {
  return text.replace(/<(\/?\s*current[_-]request)/gi, "&lt;$1");
}

function clipped(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= MAX_QUOTED
    ? trimmed
    : `${trimmed.slice(0, MAX_QUOTED)}… (the rest of the message is cut here)`;
}

/**
 * The note shown while a skill with parameters is offered or active: fill parameters from
 * the current request only, quoted in a `<current_request>` block; `dateLine` (today's date
 * and weekday) when no other part of the text gives it, since relative dates need it.
 */
export function currentRequestNote(message: string | undefined, dateLine?: string): string {
  const lines = [
    "Skill parameters: fill a skill's arguments only from the user's current request" +
      (message !== undefined && message.trim() !== "" ? ", quoted below," : "") +
      " — not from earlier messages of the conversation (an earlier time range, name or number belongs to that earlier request)," +
      ' unless the current request explicitly refers back to them ("same as before", "that period").',
  ];
  if (dateLine) lines.push(dateLine);
  if (message !== undefined && message.trim() !== "") {
    lines.push("<current_request>", escapeQuoted(clipped(message)), "</current_request>");
  }
  return lines.join("\n");
}
