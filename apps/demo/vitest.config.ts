import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources (tests never run against a stale
// dist/) through the namespaced "@skillshelf/source" export condition. Namespaced because
// some dependencies (eventsource-parser) publish raw .ts under a plain "source" condition.
export default defineConfig({
  resolve: { conditions: ["@skillshelf/source"] },
  ssr: { resolve: { conditions: ["@skillshelf/source"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each file runs its stories once, in beforeAll hooks, and its tests read the recording:
    // a hook gets the budget a test has (vitest's default for hooks is half of it). A story
    // takes a few seconds alone but over 20 s on a loaded 2-core machine (load 16-33, turbo
    // running every package's tests at once), so the budget is for that machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
