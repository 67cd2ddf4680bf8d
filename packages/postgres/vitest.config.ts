import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources (tests never run against a stale
// dist/) through the namespaced "@skillshelf/source" export condition.
export default defineConfig({
  resolve: { conditions: ["@skillshelf/source"] },
  ssr: { resolve: { conditions: ["@skillshelf/source"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
