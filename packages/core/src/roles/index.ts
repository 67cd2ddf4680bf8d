export { type BuiltinRoleOptions, builtinRoleSkills } from "./builtin-roles.js";
export {
  DELEGATE_TOOL,
  type Delegation,
  type DelegationErrorType,
  type DelegationRecord,
  type DelegationSpecOptions,
  delegationToolSpec,
  type PrepareDelegationOptions,
  prepareDelegation,
  type RoleToolsOptions,
  recordDelegation,
  resolveRoleTools,
} from "./delegation.js";
export { roleFromSkill, roleOf, rolesOf } from "./roles.js";
