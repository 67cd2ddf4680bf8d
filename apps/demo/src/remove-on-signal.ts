import { rmSync } from "node:fs";

/** What receives the signals: the process, or a stand-in in tests. */
export interface SignalSource {
  once(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

const SIGNALS: Record<"SIGINT" | "SIGTERM", number> = { SIGINT: 2, SIGTERM: 15 };

/**
 * Deletes `dir` if the process is interrupted (Ctrl-C) or terminated before the normal
 * clean-up runs, then exits as the signal would have (128 + its number). The removal is
 * synchronous: an async one would not finish before the exit. Returns the unregister call.
 */
export function removeOnSignal(
  dir: string,
  source: SignalSource = process,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const listeners = Object.entries(SIGNALS).map(([signal, number]) => {
    const listener = () => {
      unregister();
      rmSync(dir, { recursive: true, force: true });
      exit(128 + number);
    };
    source.once(signal as NodeJS.Signals, listener);
    return [signal as NodeJS.Signals, listener] as const;
  });
  const unregister = () => {
    for (const [signal, listener] of listeners) source.off(signal, listener);
  };
  return unregister;
}
