/**
 * A run as the improvement analysis reads it: core's neutral transcript (`{ role, content }`),
 * written the same way by every adapter. A tool result carries `failed` when the call threw,
 * was refused, or answered with a structured error, so core's default outcome needs no
 * framework's notion of an error.
 */

export interface RunMessage {
  role: "user" | "assistant" | "tool";
  content: string;
  /** A tool call that failed or was refused. */
  failed?: boolean;
}

/** A user message. */
export function userEntry(text: string): RunMessage {
  return { role: "user", content: text };
}

/** An assistant message: its text, then each tool call it made spelled out. */
export function assistantEntry(
  text: string,
  calls: ReadonlyArray<{ name: string; input: unknown }> = [],
): RunMessage {
  const lines = calls.map((call) => `[calls ${call.name} ${safeJson(call.input)}]`);
  return { role: "assistant", content: [text, ...lines].filter(Boolean).join("\n") };
}

/**
 * A tool's result. `error` is the framework's own verdict (a thrown tool, a denied call); a
 * structured `{ status: "error" }` output (core's refusals, a failed activation) counts too.
 */
export function toolEntry(name: string, output: unknown, options: { error?: boolean } = {}): RunMessage {
  const failed = options.error === true || isErrorResult(output);
  const text = typeof output === "string" ? output : safeJson(output);
  const entry: RunMessage = { role: "tool", content: `[${name}${failed ? " (error)" : ""}] ${text}` };
  if (failed) entry.failed = true;
  return entry;
}

function isErrorResult(output: unknown): boolean {
  if (typeof output === "string") {
    // A structured result may reach the transcript as the JSON text the model read.
    if (!output.startsWith("{")) return false;
    try {
      return isErrorResult(JSON.parse(output));
    } catch {
      return false;
    }
  }
  return typeof output === "object" && output !== null && (output as { status?: unknown }).status === "error";
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
