// Loading: source folders → scan → parse → override resolution, with cheap refresh.
export { builtinFile, defaultSkillMeta, loadBuiltins } from "./builtin.js";
export { type LoadSkillsOptions, type LoadSkillsResult, loadSkills } from "./load-skills.js";
export { type LoadChange, type LoaderOptions, SkillLoader } from "./loader.js";
export { DEFAULT_PREBUILT_FILE } from "./prebuilt.js";
export {
  type BuildShelfOptions,
  type BuildShelfResult,
  buildPrebuiltShelf,
  type CheckShelfResult,
  checkPrebuiltShelf,
} from "./prebuilt-build.js";
export {
  type Overridden,
  type OverrideReason,
  type Resolution,
  type ResolveEntry,
  resolveSkills,
} from "./resolve.js";
export { type ListResourcesOptions, listResources, RESOURCE_FOLDERS } from "./resources.js";
export { MAX_SKILL_DEPTH, SKILL_FILE_NAMES } from "./scan.js";
export {
  CLAUDE_DIR,
  DEFAULT_PROJECT_DIRS,
  DEFAULT_USER_DIRS,
  resolveSources,
  type SourceOptions,
  type SourceRoot,
} from "./sources.js";
export { FolderWatcher, WATCH_DEBOUNCE_MS } from "./watch.js";
