// Importing the package for loading and planning must not load the write and improvement
// stack: it is imported on first use. This follows the static imports of the sources (what a
// fresh process evaluates at `import "@skillshelf/core"`); bench/import.bench.ts times it.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// A declaration-level `import type` / `export type` is erased; `import { type A }` is not (under
// verbatimModuleSyntax it stays as `import {} from`), so it counts as a load.
const STATIC_IMPORT = /^(?:import|export)(?!\s+type\s)[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gm;

function reachableFrom(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith(".")) pending.push(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else if (!specifier.startsWith("node:")) packages.add(specifier);
    }
  }
  return { files: new Set([...files].map((f) => f.slice(src.length + 1))), packages };
}

describe("importing @skillshelf/core", () => {
  const { files, packages } = reachableFrom(join(src, "index.ts"));

  it("follows the graph (the shelf and the loader are reached)", () => {
    expect(files).toContain("shelf.ts");
    expect(files).toContain("load/loader.ts");
    expect(files).toContain("history/lazy-skill-store.ts");
  });

  it("does not load the writer or the improvement loop", () => {
    for (const heavy of [
      "history/writer.ts",
      "history/version-bump.ts",
      "improve/improvements.ts",
      "improve/analyze.ts",
      "improve/guards.ts",
    ]) {
      expect(files, heavy).not.toContain(heavy);
    }
  });

  it("does not load the libraries only writes and improvements use", () => {
    for (const library of ["semver", "proper-lockfile", "diff"])
      expect(packages, library).not.toContain(library);
  });
});
