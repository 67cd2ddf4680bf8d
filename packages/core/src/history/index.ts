export {
  type AtomicFileHandle,
  type AtomicFs,
  type AtomicWriteOptions,
  type AtomicWriteResult,
  atomicWrite,
  nodeAtomicFs,
} from "./atomic-write.js";
export { isSkillWriteError, SkillWriteError, type SkillWriteErrorCode } from "./errors.js";
export { sha256 } from "./hash.js";
export type { HistoryEntry, HistoryStore } from "./history-store.js";
export {
  createLedger,
  type Ledger,
  type LedgerReadResult,
  type LedgerRecord,
  type LedgerType,
} from "./ledger.js";
export { type HeldLock, type LockOptions, withFileLock } from "./lock.js";
export { bumpVersion, nextVersion, readVersion, type VersionBump } from "./version-bump.js";
export {
  type CommitOptions,
  createSkillStore,
  type RollbackResult,
  type SkillStore,
  type SkillStoreOptions,
  type VersionInfo,
  type WriteOptions,
  type WriteResult,
} from "./writer.js";
