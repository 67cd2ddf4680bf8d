// What every framework adapter needs beyond the session itself: one implementation of each
// decision the adapters would otherwise each make (and make differently).
export { notAnActivationTool, runActivationTool } from "./activation.js";
export {
  type DelegationAnswer,
  type DelegationToolResult,
  delegationResult,
  hostDelegationSpec,
  type RunDelegationOptions,
  runDelegation,
} from "./delegation.js";
export { type OnDiagnostic, reportOnce } from "./diagnostics.js";
export { type LatestUserMessage, latestUserMessage, toolErrorOutput } from "./history.js";
