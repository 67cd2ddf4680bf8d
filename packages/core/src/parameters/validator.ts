/**
 * The JSON Schema validator (ajv 8, draft-07, with ajv-formats), loaded on first use: only a
 * shelf with a skill that declares parameters pays for it, and importing @skillshelf/core
 * stays as cheap as before. `pattern` keywords run on RE2 (re2js), so a hostile schema's
 * pattern cannot make a model's argument take exponential time to check.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvClass, ErrorObject, Options, ValidateFunction } from "ajv";
import type { RegExpEngine } from "ajv/dist/types/index.js";

type AjvConstructor = new (options: Options) => AjvClass;
type AddFormats = (ajv: AjvClass) => AjvClass;
interface Re2Module {
  RE2JS: { compile(pattern: string, flags?: number): { test(input: string): boolean } };
}

export type { ErrorObject, ValidateFunction };

let instance: AjvClass | undefined;

function re2Engine(re2: Re2Module): RegExpEngine {
  const engine = ((pattern: string) => re2.RE2JS.compile(pattern)) as unknown as RegExpEngine;
  engine.code = 'require("re2js").RE2JS.compile';
  return engine;
}

function validator(): AjvClass {
  if (instance) return instance;
  const require = createRequire(import.meta.url);
  const ajvModule = require("ajv") as { default: AjvConstructor };
  const formatsModule = require("ajv-formats") as { default: AddFormats };
  const re2 = require("re2js") as Re2Module;
  const ajv = new ajvModule.default({
    allErrors: true,
    useDefaults: true,
    // Authors annotate schemas (`x-…`, `examples`): unknown keywords are not an error, but
    // every known keyword is checked against the meta-schema.
    strict: false,
    validateSchema: true,
    // No `loadSchema`: a reference that is not inside the schema is never fetched.
    code: { regExp: re2Engine(re2) },
    messages: true,
    // Each error carries the schema it broke, so a refusal can quote its description.
    verbose: true,
  });
  formatsModule.default(ajv);
  instance = ajv;
  return ajv;
}

/** The compiled check of one schema, or the validator's reason for refusing the schema. */
export function compileSchema(
  schema: Record<string, unknown>,
): { ok: true; validate: ValidateFunction } | { ok: false; message: string; pointer?: string } {
  const ajv = validator();
  // A root `$id` would be registered in the shared validator: two skills with the same id
  // would clash. References inside the schema resolve against the schema itself either way.
  const { $id: _id, ...rest } = schema;
  if (!ajv.validateSchema(rest)) {
    const first = ajv.errors?.[0];
    return {
      ok: false,
      message: `it is not a valid JSON Schema: ${first ? `${first.instancePath || "the schema"} ${first.message}` : "the validator refused it"}`,
      pointer: first?.instancePath,
    };
  }
  try {
    return { ok: true, validate: ajv.compile(rest) };
  } catch (error) {
    return { ok: false, message: `it cannot be compiled: ${(error as Error).message}` };
  }
}
