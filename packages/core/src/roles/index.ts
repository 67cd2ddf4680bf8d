export { type BuiltinRoleOptions, builtinRoleSkills } from "./builtin-roles.js";
export {
  DELEGATE_TOOL,
  type Delegation,
  type DelegationErrorType,
  type DelegationSpecOptions,
  delegationToolSpec,
  type PrepareDelegationOptions,
  prepareDelegation,
  type RoleToolsOptions,
  resolveRoleTools,
} from "./delegation.js";
export { roleFromSkill, roleOf, rolesOf } from "./roles.js";
