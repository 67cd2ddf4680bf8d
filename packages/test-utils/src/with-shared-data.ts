/**
 * Vitest suites and tests that read the shared data ({@link sharedData}): skipped when it is
 * absent outside CI, run (and so failing loudly) under CI. Module-level reads go through
 * {@link readSharedText}, which cannot throw ENOENT while the suites that use it are skipped.
 */
import { readFileSync } from "node:fs";
import { describe, it, type TestContext } from "vitest";
import { hasSharedData, IN_CI, SHARED_DATA_NOTICE, sharedData } from "./shared-data.js";

const skip = !hasSharedData && !IN_CI;

/** `describe`, skipped when the shared data is missing (never under CI). */
export const describeWithSharedData: ReturnType<typeof describe.skipIf> = describe.skipIf(skip);

/** `it`, skipped when the shared data is missing (never under CI). */
export const itWithSharedData: ReturnType<typeof it.skipIf> = it.skipIf(skip);

/** The text of a shared data file, or "" when the data is missing and its tests are skipped. */
export function readSharedText(relative: string): string {
  const path = sharedData(relative);
  return skip ? "" : readFileSync(path, "utf8");
}

/**
 * Skips the current test (or, as a `beforeEach` hook, every test in its scope) when the
 * shared data is missing outside CI. For spots where renaming `it`/`describe` would not fit.
 */
export function skipWithoutSharedData(context: TestContext): void {
  context.skip(skip, SHARED_DATA_NOTICE);
}
