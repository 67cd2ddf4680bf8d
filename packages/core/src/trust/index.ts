export {
  evaluateTrust,
  isTrusted,
  policyOf,
  type TrustState,
  type TrustStatus,
  widenings,
} from "./evaluate.js";
export { type FolderDigest, folderDigest } from "./folder-digest.js";
export { createTrustGate, skillFolderOf, type TrustGate, trustCommand, trustStates } from "./gate.js";
export {
  revokeSkillFolders,
  skillFoldersAt,
  type TrustedFolder,
  trustRecordOf,
  trustSkillFolders,
} from "./trust-folders.js";
export {
  defaultTrustFile,
  readTrustFile,
  type TrustedPolicy,
  type TrustFile,
  type TrustRecord,
  updateTrustFile,
} from "./trust-store.js";
