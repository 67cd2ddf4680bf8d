export { defaultToolAliases, type ToolAliases } from "./aliases.js";
export {
  compileToolEntry,
  createToolPolicy,
  looseToolName,
  resolveAllowedTools,
  type ToolDecision,
  type ToolMatcher,
  type ToolPolicy,
  type ToolPolicyOptions,
} from "./tool-policy.js";
