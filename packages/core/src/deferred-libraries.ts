/**
 * Libraries that loading from a prebuilt shelf and planning rarely need, loaded on their first
 * use instead of at import: re2js (≈ 260 kB, only `/regex/` triggers and `paths:` globs) and js-yaml
 * (≈ 130 kB, only the frontmatter fast path). Compiling them cost
 * a fresh `import("@skillshelf/core")` about half its CPU time. `require` keeps every caller
 * synchronous; the parameter validator (parameters/validator.ts) requires re2js the same way, so
 * both share one instance. `yaml` is deferred the same way in parse/yaml-lib.ts.
 */
import { createRequire } from "node:module";
import type * as JsYaml from "js-yaml";
import type * as Re2js from "re2js";

const require = createRequire(import.meta.url);

let re2: typeof Re2js | undefined;
let jsYaml: typeof JsYaml | undefined;

export function re2js(): typeof Re2js {
  re2 ??= require("re2js") as typeof Re2js;
  return re2;
}

export function jsYamlLib(): typeof JsYaml {
  jsYaml ??= require("js-yaml") as typeof JsYaml;
  return jsYaml;
}
