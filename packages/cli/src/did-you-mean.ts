/**
 * The option a mistyped flag most likely meant, taken from the command's own help text (so
 * a suggestion can never name an option the command lacks). Undefined when none is close.
 */
export function closestOption(typed: string, help: string): string | undefined {
  const options = new Set(help.match(/--[a-z][a-z0-9-]*/g) ?? []);
  const name = typed.split("=")[0] ?? typed;
  // Close means a slip of one or two keys, not a different word.
  const tolerance = Math.max(1, Math.floor(name.length / 4));
  let best: { option: string; distance: number } | undefined;
  for (const option of options) {
    const distance = editDistance(name, option);
    if (distance <= tolerance && (!best || distance < best.distance)) best = { option, distance };
  }
  return best?.option;
}

/** Levenshtein distance, one row at a time (flags are short; no dependency needed for this). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
