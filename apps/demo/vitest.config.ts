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
    // a hook gets the budget a test has (vitest's default for hooks is half of it).
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
