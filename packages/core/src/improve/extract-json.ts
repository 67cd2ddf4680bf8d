/**
 * Models wrap JSON in prose or in ```json fences more often than not. This finds the JSON
 * value in an answer — the whole answer, else the first fenced block that parses, else the
 * span from the first `{` to the last `}` — and says precisely why when there is none.
 */
export type ExtractedJson = { ok: true; value: unknown } | { ok: false; error: string };

const FENCE = /```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;

export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, error: "the answer is empty" };
  const whole = tryParse(trimmed);
  if (whole.ok) return whole;

  let firstFenceError: string | undefined;
  for (const match of trimmed.matchAll(FENCE)) {
    const parsed = tryParse(match[2]!.trim());
    if (parsed.ok) return parsed;
    firstFenceError ??= `the ${match[1] || "fenced"} block ${parsed.error}`;
  }

  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  if (start !== -1 && end > start) {
    const span = tryParse(trimmed.slice(start, end + 1));
    if (span.ok) return span;
    return { ok: false, error: firstFenceError ?? `the {…} span ${span.error}` };
  }
  return {
    ok: false,
    error:
      firstFenceError ?? `no JSON object found (the answer starts: ${JSON.stringify(trimmed.slice(0, 80))})`,
  };
}

function tryParse(text: string): ExtractedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `is not valid JSON: ${locate(text, (error as Error).message)}` };
  }
}

/** Turns V8's "at position N" into "line L, column C" with the offending line shown. */
function locate(text: string, message: string): string {
  const position = /position (\d+)/.exec(message);
  if (!position) return message;
  const offset = Number(position[1]);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  const lineText = text.split("\n")[line - 1] ?? "";
  return `${message.replace(/ \(line \d+ column \d+\)$/, "")} (line ${line}, column ${column}: ${JSON.stringify(lineText.slice(0, 120))})`;
}
