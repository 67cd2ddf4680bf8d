export {
  type AfterRunResult,
  defaultRunOutcome,
  type FinishedRun,
  type ImproveOptions,
  improveAfterRun,
  type RunVerdict,
  runMessages,
  type SkillRun,
  skillsUsedInRun,
} from "./after-run.js";
export { type AnalyzedProposal, type AnalyzeRunInput, type AnalyzeRunResult, analyzeRun } from "./analyze.js";
export { type ApplyResult, applyEdits, type EditProblem, type TextEdit } from "./apply-edits.js";
export { ImproveError, type ImproveErrorCode } from "./errors.js";
export { extractJson } from "./extract-json.js";
export {
  bloatFlags,
  checkMerge,
  DEFAULT_GUARD_LIMITS,
  type GuardLimits,
  type GuardName,
  type GuardViolation,
  type MergeCheck,
  type MergeStats,
} from "./guards.js";
export {
  type AcceptOptions,
  type AcceptResult,
  type AnalyzeOptions,
  type AnalyzeResult,
  createImprovements,
  type Improvements,
  type ImprovementsOptions,
  type Preview,
} from "./improvements.js";
export type { RejectedIdea, SkillRecord, Transcript } from "./prompts.js";
export { assistantEntry, type RunMessage, toolEntry, userEntry } from "./run-transcript.js";
export type { ImprovementProposal, ProposalStatus, RunOutcome } from "./schema.js";
