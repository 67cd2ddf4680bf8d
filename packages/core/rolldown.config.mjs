// The published build: tsc writes dist/ (types, and one .js per module), then this bundles each
// entry point's modules into a few files. Importing 139 separate modules cost ≈ 85 ms of CPU in a
// fresh process, most of it resolving, compiling and linking each one; bundled ≈ 41 ms
// (bench/RESULTS.md, "Import cost"). The entry points share chunks, so a module loaded through
// `@skillshelf/core` and `@skillshelf/core/adapter` is one instance; `import()`s stay lazy chunks
// (the write stack, the improvement loop, the workflow runner); packages stay external.
import fs from "node:fs";
import path from "node:path";

// Chunk names carry a content hash: the last build's chunks would otherwise pile up.
fs.rmSync("dist/chunks", { recursive: true, force: true });

const input = {
  index: "dist/index.js",
  "adapter-kit/index": "dist/adapter-kit/index.js",
  "improve/index": "dist/improve/index.js",
  "store/index": "dist/store/index.js",
  "testing/index": "dist/testing/index.js",
};

/**
 * The modules an entry loads at import: its static `import`/`export … from` closure in tsc's
 * output (dynamic `import()`s are not followed; they are what stays lazy).
 */
function staticClosure(entry) {
  const seen = new Set();
  const pending = [path.resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, "utf8");
    for (const found of text.matchAll(
      /(?:^|[\s;}])(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"|^import\s*"(\.{1,2}\/[^"]+)"/gm,
    )) {
      pending.push(path.resolve(path.dirname(file), found[1] ?? found[2]));
    }
  }
  return seen;
}

// Left to itself the bundler cuts what the root import loads into ten chunks, one per set of
// entries and lazy importers that share it; each file costs a fresh process its own resolve,
// compile and link. Two groups instead: what the root and the adapter entry both load, and what
// only the root loads. An adapter imports both entries, so it loads the same two.
const entries = new Set(Object.values(input).map((file) => path.resolve(file)));
const root = staticClosure(input.index);
const adapter = staticClosure(input["adapter-kit/index"]);
const shared = new Set([...root].filter((file) => adapter.has(file)));

export default {
  input,
  platform: "node",
  external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
  output: {
    dir: "dist",
    format: "esm",
    chunkFileNames: "chunks/[name]-[hash].js",
    sourcemap: true,
    // The doc comments stay in the .d.ts files (tsc writes them); in the bundle each one was
    // scanned again whenever the engine compiled the function it sits in, and a cold start
    // compiles hundreds of them. Legal and annotation comments (`@__PURE__`) are kept for
    // apps that bundle core themselves.
    comments: { legal: true, annotation: true, jsdoc: false },
    // Escaped, the few characters past ASCII in strings and patterns leave each chunk a one-byte
    // string to the engine, which it reads faster when compiling a function on its first call.
    charset: "ascii",
    codeSplitting: {
      groups: [
        { name: "shared", priority: 2, test: (id) => shared.has(id) && !entries.has(id) },
        { name: "core", priority: 1, test: (id) => root.has(id) && !entries.has(id) },
      ],
    },
  },
};
