import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources, so tests never run against a
// stale dist/. An alias rather than the "source" export condition: @mastra/core's
// dependency eventsource-parser also publishes a "source" condition (raw .ts under
// node_modules, which Node will not strip), so the condition cannot be applied globally.
const core = fileURLToPath(new URL("../core/src/index.ts", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@skillshelf/core": core } },
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 20_000 },
});
