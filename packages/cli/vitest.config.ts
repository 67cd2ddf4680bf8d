import { defineConfig } from "vitest/config";

// "source" resolves workspace packages to their TypeScript sources, so tests never
// run against a stale dist/.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 20_000 },
});
