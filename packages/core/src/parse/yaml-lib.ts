/**
 * The `yaml` library, loaded on first use instead of at import: it is 72 modules (≈ 20 ms in
 * a fresh process), and a shelf started from a prebuilt shelf parses no frontmatter at all.
 * `require` keeps the call synchronous; it loads the same build (`yaml`'s "node" export) an
 * `import` would, so node types and schemas are the ones the rest of the process sees.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

export function yamlLib(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return loaded;
}

let coreSchema: Yaml.Schema | undefined;

/** The core schema with its known tags, as every frontmatter is read (both paths). */
export function yamlCoreSchema(): Yaml.Schema {
  coreSchema ??= new (yamlLib().Schema)({ resolveKnownTags: true, schema: "core" });
  return coreSchema;
}
