/**
 * Size limits. The spec ones (name, description, compatibility) come from the Agent Skills
 * specification; the others keep a hostile or broken file from costing the host anything.
 */

/** `readSkillFile` refuses files above this many bytes (1 MiB) without reading them whole. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/**
 * Longest frontmatter (the YAML between the fences) parsed, in characters: 64 KiB, fifty
 * times the largest in the 939-file corpus (1.3 KB). Bounds what a hostile file can make
 * the YAML parser do to well under 100 ms.
 */
export const MAX_FRONTMATTER_LENGTH = 64 * 1024;

/** Diagnostics of one code reported per file; the rest are counted in one summary diagnostic. */
export const MAX_DIAGNOSTICS_PER_CODE = 20;

/** Spec: `name` is 1–64 characters. */
export const NAME_MAX_LENGTH = 64;

/** Spec: `description` is 1–1024 characters. */
export const DESCRIPTION_MAX_LENGTH = 1024;

/** Spec: `compatibility` is at most 500 characters. */
export const COMPATIBILITY_MAX_LENGTH = 500;

/** Spec recommendation: keep the body under 500 lines (reported in strict mode only). */
export const BODY_MAX_LINES = 500;

/**
 * YAML aliases a frontmatter may expand. Real frontmatter uses none; the cap stops
 * "billion laughs" documents (each level multiplying the one below) before they expand.
 */
export const MAX_YAML_ALIASES = 100;

/**
 * Deepest YAML nesting a frontmatter may have (flow brackets, `- - -` chains, indentation
 * levels). Real frontmatter nests 2–3 deep; the YAML parser recurses per level, and past a
 * few hundred levels it exhausts the stack and slows to seconds, so such input is refused
 * by a linear pre-scan before it is parsed.
 */
export const MAX_YAML_DEPTH = 256;
