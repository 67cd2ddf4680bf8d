/**
 * Bounds on a parameter schema and on the arguments checked against it. A skill folder may be
 * hostile: a schema is compiled to code and run on every activation, so its size and depth
 * are capped before the validator sees it.
 */

/** Largest `schema.json` read (64 KiB): real parameter schemas are a few hundred bytes. */
export const MAX_SCHEMA_BYTES = 64 * 1024;

/** Deepest nesting of objects and arrays in a schema. */
export const MAX_SCHEMA_DEPTH = 32;

/** Most objects, arrays and values in a schema. */
export const MAX_SCHEMA_NODES = 5_000;

/** Longest arguments object, as JSON text, an activation takes (the same bound as free-text arguments). */
export const MAX_ARGUMENTS_LENGTH = 4_000;

/** Problems listed in one INVALID_ARGUMENTS result; the model fixes these first. */
export const MAX_REPORTED_PROBLEMS = 10;
