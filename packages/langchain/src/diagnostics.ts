import { type Diagnostic, formatDiagnostic } from "@skillshelf/core";

/** Where problems core finds at run time go (e.g. a whitelisted tool name that matches none of yours). */
export type OnDiagnostic = (diagnostic: Diagnostic) => void;

/** The default: each distinct problem once per process on `console.warn`, not once per model call. */
export function warnOnce(): OnDiagnostic {
  const seen = new Set<string>();
  return (d) => {
    const key = `${d.code}\u0000${d.file}\u0000${d.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    console.warn(`[skillshelf] ${formatDiagnostic(d)}`);
  };
}
