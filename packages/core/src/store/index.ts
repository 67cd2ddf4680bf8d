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
