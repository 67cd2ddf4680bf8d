// The published build: tsc writes dist/ (types, and one .js per module), then this bundles each
// entry point's modules into a few files. Importing 139 separate modules cost ≈ 85 ms of CPU in a
// fresh process, most of it resolving, compiling and linking each one; bundled ≈ 41 ms
// (bench/RESULTS.md, "Import cost"). The entry points share chunks, so a module loaded through
// `@skillshelf/core` and `@skillshelf/core/adapter` is one instance; `import()`s stay lazy chunks
// (the write stack, the improvement loop); packages stay external.
import fs from "node:fs";
import path from "node:path";

// Chunk names carry a content hash: the last build's chunks would otherwise pile up.
fs.rmSync("dist/chunks", { recursive: true, force: true });

export default {
  input: {
    index: "dist/index.js",
    "adapter-kit/index": "dist/adapter-kit/index.js",
    "improve/index": "dist/improve/index.js",
    "store/index": "dist/store/index.js",
    "testing/index": "dist/testing/index.js",
  },
  platform: "node",
  external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
  output: {
    dir: "dist",
    format: "esm",
    chunkFileNames: "chunks/[name]-[hash].js",
    sourcemap: true,
  },
};
