import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Workspace packages resolve to their TypeScript sources (tests never run against a stale
// dist/) through aliases rather than the "source" export condition: `ai` depends on
// eventsource-parser, which also exports raw .ts under "source", and Node cannot load that
// from node_modules.
export default defineConfig({
  resolve: {
    alias: {
      "@skillshelf/ai-sdk": here("./src/index.ts"),
      "@skillshelf/core": here("../core/src/index.ts"),
      "@skillshelf/test-utils": here("../test-utils/src/index.ts"),
    },
  },
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 20_000 },
});
