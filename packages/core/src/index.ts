// Public API of @skillshelf/core. Each feature module exports what hosts and adapters need.

export type { DiagnosticInput } from "./diagnostic.js";
export { DEFAULT_HINTS, diagnostic, formatDiagnostic } from "./diagnostic.js";
export { splitFrontmatter } from "./parse/frontmatter.js";
export {
  BODY_MAX_LINES,
  COMPATIBILITY_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  MAX_SKILL_FILE_BYTES,
  MAX_YAML_ALIASES,
  NAME_MAX_LENGTH,
} from "./parse/limits.js";
export { checkName, normalizeName } from "./parse/name-rules.js";
export { parseSkill } from "./parse/parse-skill.js";
export type { ReadSkillOptions } from "./parse/read-skill-file.js";
export { readSkillFile } from "./parse/read-skill-file.js";
export type { RefreshResult, Shelf, ShelfOptions } from "./shelf.js";
// ── sessions, policy, roles, events (issue 3 §3) ──
export * from "./events/index.js";
export * from "./policy/index.js";
export * from "./roles/index.js";
export * from "./session/index.js";
export type * from "./types.js";
