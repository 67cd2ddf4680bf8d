/**
 * `@skillshelf/core/adapter`: what a framework adapter needs beyond the session itself —
 * one implementation of each thing the adapters would otherwise each do (and do differently).
 */

// The improvement loop's own helpers (analyzeRun, checkMerge, …) are on `@skillshelf/core/improve`:
// they load zod, semver, diff and yaml, which a route that only plans and runs skills never needs.
// The transcript entries stay here: every adapter writes its run as one.
export { assistantEntry, type RunMessage, toolEntry, userEntry } from "../improve/run-transcript.js";
export {
  DELEGATE_TOOL,
  type DelegationErrorType,
  type DelegationRecord,
  type DelegationSpecOptions,
  delegationScope,
  delegationToolSpec,
  type PrepareDelegationOptions,
  prepareDelegation,
  type RoleAgentGuard,
  type RoleToolsOptions,
  recordDelegation,
  resolveRoleTools,
  roleAgentGuard,
  roleFromSkill,
  roleInstructions,
  roleOf,
  rolesOf,
} from "../roles/index.js";
export { commandRecordFilter, isCommandRecordId } from "../session/command-record.js";
export { currentSession, runInSession } from "../session/current-session.js";
export { type ForkToolResult, forkResult, forkUnavailable, isForkOutput } from "../session/fork.js";
export {
  ACTIVATE_SKILL_TOOL,
  activateSkillToolSpec,
  closestSkillNames,
  createSession,
  createShelfSessions,
  createToolNameIndex,
  currentDateLine,
  END_SKILL_TOOL_NAMES,
  type ExplicitInvocation,
  endSkillToolSpec,
  isContinuation,
  parseExplicitInvocation,
  resolveInvokedSkill,
  type SessionCatalog,
  type SessionMatcher,
  type SessionOptions,
  type ShelfSessions,
  type ShelfSessionsOptions,
  SKILL_TOOL_PREFIX,
  type SubstituteOptions,
  skillToolDescription,
  skillToolName,
  skillToolSpec,
  splitArguments,
  substituteArguments,
  TOOL_NAME_PATTERN,
  type ToolNameIndex,
  type UsageRecorder,
} from "../session/index.js";
export {
  type DelegationAnswer,
  type DelegationToolResult,
  delegationResult,
  hostDelegationSpec,
  type RunDelegationOptions,
  runDelegation,
} from "./delegation.js";
export { type OnDiagnostic, reportOnce } from "./diagnostics.js";
export { reportedFiles } from "./host-files.js";
export { respondingModel } from "./model-responses.js";
export { pendingCalls, respondToPendingCalls } from "./pending-calls.js";
export { skillModels } from "./skill-model.js";
export {
  type Blocked,
  isBlockedResult,
  notASkillTool,
  readRefusalText,
  refusalError,
  refusesTool,
  runHostTool,
  runSkillTool,
  type SkillToolOptions,
  toolErrorOutput,
} from "./tool-calls.js";
export { type ToolResultPairing, toolResultPairing } from "./tool-results.js";
export {
  answeringUnknownTools,
  isFrameworkUnknownToolText,
  skillToolNotOffered,
  subAgentUnknownTool,
  type UnknownToolResult,
  unknownTool,
  withUnknownToolsAnswered,
} from "./unknown-tools.js";
export {
  isWorkflowProgressEvent,
  listenForWorkflowProgress,
  WORKFLOW_PROGRESS_TYPE,
  type WorkflowProgressEvent,
  type WorkflowProgressListener,
  workflowProgressEvent,
} from "./workflow-progress.js";
