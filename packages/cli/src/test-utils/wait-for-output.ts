// Waits for a running command to print something (tests only; excluded from the build).
import type { Captured } from "./capture.js";

/**
 * Resolves with everything `io` has printed once it contains `text`; rejects after `ms` with
 * what it printed so far. The cap is generous on purpose: this waits for the event, and a
 * loaded machine can take many seconds to get a command (a shelf load, a server) that far.
 */
export async function waitForOutput(io: Captured, text: string, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (!io.out().includes(text)) {
    if (Date.now() > deadline) {
      throw new Error(`no "${text}" in the output after ${ms} ms; out: ${io.out()} err: ${io.err()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return io.out();
}
