/**
 * What the YAML core schema makes of a plain scalar, where that needs no `yaml` library: the
 * fast frontmatter path types plain scalars with `yaml`'s own core-schema tags, and loading
 * `yaml` costs ≈ 25–35 ms in a fresh process, most of a cold start's first parse (checking a
 * prebuilt skill against its file). Most plain scalars are words, which no tag but the string
 * reads; `~`, `null` and the booleans are written out in full and resolve to one constant
 * each. Only a scalar that starts like a number (an int, a float, `.inf`, `.nan`) is left to
 * the tags. The patterns are `yaml`'s core-schema tests (plain-scalar.test.ts compares them).
 */

/** `yaml`'s core `null` tag test. */
export const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
/** `yaml`'s core `bool` tag test. */
export const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** Every other core tag (the ints and floats) only matches text that starts like this. */
export const NUMBER_LIKE = /^[-+]?[.0-9]/;

export const NEEDS_TAGS = Symbol("needs the core schema's tags");

/** The scalar's value, or `NEEDS_TAGS` when it may be a number (the tags decide). */
export function plainScalarValue(text: string): string | boolean | null | typeof NEEDS_TAGS {
  if (CORE_NULL.test(text)) return null;
  if (CORE_BOOL.test(text)) return text[0] === "t" || text[0] === "T";
  if (NUMBER_LIKE.test(text)) return NEEDS_TAGS;
  return text;
}
