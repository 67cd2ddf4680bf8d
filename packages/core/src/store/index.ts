// What another store needs to behave as the file store does: version ids, name checks, proposal records.
export { type AddResult, assertSafeName, formatVersionId } from "../history/history-store.js";
export type { FileProposalStore, ProposalStore } from "../improve/proposal-store.js";
export { parseStoredProposal } from "../improve/stored-proposal.js";
export { type UsageChangeLog, usageChangeLog } from "../usage/change-log.js";
export { applyUsageChanges, type UsageChange } from "../usage/store.js";
export { matchesEventQuery } from "./event-query.js";
export {
  createFileStateStore,
  EVENTS_LOG,
  type FileStateStore,
  type FileStateStoreOptions,
} from "./file-state-store.js";
export type {
  EventQuery,
  EventStore,
  LedgerInput,
  LedgerStore,
  SkillWriteScope,
  StateStore,
  VersionStore,
} from "./state-store.js";
