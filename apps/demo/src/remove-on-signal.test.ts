import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { removeOnSignal } from "./remove-on-signal.js";
import { createSandbox } from "./sandbox.js";

describe("removeOnSignal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("deletes the sandbox on %s and exits with %i", async (signal, expected) => {
    const sandbox = await createSandbox();
    const signals = new EventEmitter();
    const codes: number[] = [];
    removeOnSignal(sandbox.dir, signals, (code) => codes.push(code));
    expect(existsSync(sandbox.dir)).toBe(true);
    signals.emit(signal);
    expect(existsSync(sandbox.dir)).toBe(false);
    expect(codes).toEqual([expected]);
    // Both handlers are gone: a second signal does not run the clean-up again.
    expect(signals.listenerCount("SIGINT") + signals.listenerCount("SIGTERM")).toBe(0);
  });

  it("once unregistered, a signal leaves the folder alone", async () => {
    const sandbox = await createSandbox();
    try {
      const signals = new EventEmitter();
      const codes: number[] = [];
      removeOnSignal(sandbox.dir, signals, (code) => codes.push(code))();
      signals.emit("SIGINT");
      expect(existsSync(sandbox.dir)).toBe(true);
      expect(codes).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});
