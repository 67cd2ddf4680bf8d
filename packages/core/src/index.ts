// Public API of @skillshelf/core: what an app author uses. Adapter authors' helpers are in
// `@skillshelf/core/adapter`, the conformance suite in `@skillshelf/core/testing`.
// (Kept in path order: Biome's organizeImports sorts these exports, so no section banners.)

export {
  isWorkflowProgressEvent,
  WORKFLOW_PROGRESS_TYPE,
  type WorkflowProgressEvent,
} from "./adapter-kit/workflow-progress.js";
export {
  buildCatalog,
  type Catalog,
  type CatalogEntry,
  type CatalogOptions,
  catalogLine,
  DEFAULT_CATALOG_HEADING,
} from "./catalog/catalog.js";
export { type CountTokens, estimateTokens } from "./catalog/tokens.js";
export { type PackageSkillFolder, packageSkillFolders } from "./config/package-skills.js";
export {
  CONFIG_FILE,
  defaultConfigFile,
  parseShelfConfig,
  type ReadConfig,
  readShelfConfig,
  type ShelfConfig,
} from "./config/shelf-config.js";
export { type ConfiguredSources, configuredSources } from "./config/shelf-sources.js";
export type { DiagnosticInput } from "./diagnostic.js";
export { DEFAULT_HINTS, diagnostic, formatDiagnostic } from "./diagnostic.js";
export * from "./events/index.js";
export type { AtomicFs } from "./history/atomic-write.js";
export { SkillWriteError, type SkillWriteErrorCode } from "./history/errors.js";
export { sha256 } from "./history/hash.js";
export type { HistoryEntry, HistoryStore } from "./history/history-store.js";
export { createSkillStore } from "./history/lazy-skill-store.js";
export type { Ledger, LedgerReadResult, LedgerRecord, LedgerType } from "./history/ledger.js";
export type {
  CommitOptions,
  RollbackResult,
  SkillStore,
  SkillStoreOptions,
  VersionInfo,
  WriteOptions,
  WriteResult,
} from "./history/writer.js";
export {
  type AfterRunResult,
  type FinishedRun,
  type ImproveOptions,
  improveAfterRun,
  type RunVerdict,
  type SkillRun,
} from "./improve/after-run.js";
export { ImproveError, type ImproveErrorCode } from "./improve/errors.js";
export type {
  AcceptOptions,
  AcceptResult,
  AnalyzeOptions,
  AnalyzeResult,
  Improvements,
  Preview,
} from "./improve/improvements.js";
export type { SkillRecord, Transcript } from "./improve/prompts.js";
export type { ImprovementProposal, ProposalStatus, RunOutcome } from "./improve/schema.js";
export {
  type BuildShelfOptions,
  type BuildShelfResult,
  buildPrebuiltShelf,
  builtinFile,
  type CheckShelfResult,
  CLAUDE_DIR,
  checkPrebuiltShelf,
  DEFAULT_PREBUILT_FILE,
  DEFAULT_PROJECT_DIRS,
  DEFAULT_USER_DIRS,
  defaultSkillMeta,
  type ListResourcesOptions,
  type LoadSkillsOptions,
  type LoadSkillsResult,
  listResources,
  loadSkills,
  type Overridden,
  type OverrideReason,
  RESOURCE_FOLDERS,
  resolveSources,
  SKILL_FILE_NAMES,
  type SourceRoot,
} from "./load/index.js";
export {
  type CaseError,
  type Confusion,
  evaluateRouting,
  parseRoutingCases,
  type RoutingCase,
  type RoutingReport,
} from "./match/evaluate.js";
export {
  createMatcher,
  DEFAULT_TUNING,
  type EmbedFunction,
  type MatchCallOptions,
  type Matcher,
  type MatcherOptions,
  type MatchTuning,
} from "./match/matcher.js";
export { normalizeText } from "./match/normalize.js";
export { type TriggerCheckOptions, triggerDiagnostics } from "./match/trigger-diagnostics.js";
export { type CompiledTrigger, type CompileResult, compileTrigger } from "./match/triggers.js";
export * from "./parameters/index.js";
export { splitFrontmatter } from "./parse/frontmatter.js";
export {
  BODY_MAX_LINES,
  COMPATIBILITY_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  MAX_FRONTMATTER_LENGTH,
  MAX_SKILL_FILE_BYTES,
  MAX_YAML_ALIASES,
  MAX_YAML_DEPTH,
  NAME_MAX_LENGTH,
} from "./parse/limits.js";
export { checkName, normalizeName, suggestName } from "./parse/name-rules.js";
export { parseSkill } from "./parse/parse-skill.js";
export type { ReadSkillOptions } from "./parse/read-skill-file.js";
export { readSkillFile } from "./parse/read-skill-file.js";
export { splitPhraseList, splitToolList } from "./parse/schema.js";
export * from "./policy/index.js";
export {
  type BuiltinRoleOptions,
  builtinRoleSkills,
  DEFAULT_ROLE_MAX_STEPS,
  type Delegation,
  type RoleAgentSpec,
  type RoleAgentSpecOptions,
  roleAgentSpec,
} from "./roles/index.js";
export { DEFAULT_SCOPE, END_COMMAND, EVENTS_FILE, type OpenSessionOptions } from "./session/index.js";
export type { RefreshResult, Shelf, ShelfOptions } from "./shelf.js";
export { createShelf } from "./shelf.js";
export * from "./skill-files/index.js";
// What an app configures; what another store implementation needs is in `@skillshelf/core/store`
// (imported file by file: the store index would also load the proposal schema, and zod with it).
export { matchesEventQuery } from "./store/event-query.js";
export {
  createFileStateStore,
  EVENTS_LOG,
  type FileStateStore,
  type FileStateStoreOptions,
} from "./store/file-state-store.js";
export type {
  EventQuery,
  EventStore,
  LedgerInput,
  LedgerStore,
  SkillWriteScope,
  StateStore,
  VersionStore,
} from "./store/state-store.js";
export * from "./text/index.js";
export * from "./trust/index.js";
export type * from "./types.js";
export {
  createFileUsageStore,
  type FileUsageStore,
  type FileUsageStoreOptions,
  USAGE_FILE,
} from "./usage/file-store.js";
export {
  createMemoryUsageStore,
  recency,
  type UsageRecord,
  type UsageStore,
  withUse,
} from "./usage/store.js";
export * from "./workflow/index.js";
