import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources (tests never run against a stale
// dist/) through the namespaced "@skillshelf/source" export condition. Namespaced because
// some dependencies (eventsource-parser) publish raw .ts under a plain "source" condition.
export default defineConfig({
  resolve: { conditions: ["@skillshelf/source"] },
  ssr: { resolve: { conditions: ["@skillshelf/source"] } },
  // Many tests run git, pack tarballs, serve a registry or drive Chromium: ~10 s each on a
  // loaded 2-core machine (load ~15, every package's tests at once), so 20 s was too close.
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
});
