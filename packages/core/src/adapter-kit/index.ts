/**
 * `@skillshelf/core/adapter`: what a framework adapter needs beyond the session itself —
 * one implementation of each thing the adapters would otherwise each do (and do differently).
 */

export { assistantEntry, type RunMessage, toolEntry, userEntry } from "../improve/run-transcript.js";
export { currentSession, runInSession } from "../session/current-session.js";
export {
  type DelegationAnswer,
  type DelegationToolResult,
  delegationResult,
  hostDelegationSpec,
  type RunDelegationOptions,
  runDelegation,
} from "./delegation.js";
export { type OnDiagnostic, reportOnce } from "./diagnostics.js";
export { respondingModel } from "./model-responses.js";
export {
  type Blocked,
  isBlockedResult,
  notASkillTool,
  runHostTool,
  runSkillTool,
  toolErrorOutput,
} from "./tool-calls.js";
