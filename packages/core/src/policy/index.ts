export { defaultToolAliases, type ToolAliases } from "./aliases.js";
export {
  type CommandCondition,
  compileToolEntry,
  createToolPolicy,
  resolveAllowedTools,
  type ToolDecision,
  type ToolMatcher,
  type ToolPolicy,
  type ToolPolicyOptions,
} from "./tool-policy.js";
