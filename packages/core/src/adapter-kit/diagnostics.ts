/**
 * Where an adapter sends the diagnostics a plan carries (unknown-tool, tool-name-clash,
 * plan-fallback). A plan is made on every step, so the same problem comes back every step:
 * a human should hear of it once.
 */
import { formatDiagnostic } from "../diagnostic.js";
import type { Diagnostic } from "../types.js";

export type OnDiagnostic = (diagnostic: Diagnostic) => void;

const warn: OnDiagnostic = (d) => console.warn(`[skillshelf] ${formatDiagnostic(d)}`);

/**
 * Each distinct diagnostic (code, file, message) passed on once, to `report` (default:
 * `console.warn`). Hold one per adapter instance.
 */
export function reportOnce(report: OnDiagnostic = warn): OnDiagnostic {
  const seen = new Set<string>();
  return (d) => {
    const key = `${d.code}\u0000${d.file}\u0000${d.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    report(d);
  };
}
