export { type BuiltinRoleOptions, builtinRoleSkills } from "./builtin-roles.js";
export {
  type Delegation,
  type DelegationErrorType,
  type DelegationRecord,
  type DelegationSpecOptions,
  delegationToolSpec,
  type PrepareDelegationOptions,
  prepareDelegation,
  recordDelegation,
} from "./delegation.js";
export { delegationScope } from "./delegation-scope.js";
export { type RoleAgentGuard, roleAgentGuard } from "./role-agent-guard.js";
export {
  DEFAULT_ROLE_MAX_STEPS,
  type RoleAgentSpec,
  type RoleAgentSpecOptions,
  roleAgentSpec,
  roleInstructions,
} from "./role-agent-spec.js";
export { DELEGATE_TOOL, type RoleToolsOptions, resolveRoleTools } from "./role-tools.js";
export { roleFromSkill, roleOf, rolesOf } from "./roles.js";
