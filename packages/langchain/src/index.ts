// @skillshelf/langchain: skillshelf for LangChain JS `createAgent`.

export type { OnDiagnostic } from "./diagnostics.js";
export { generateFrom } from "./generate.js";
export {
  type AgentRun,
  analyzeAfterRun,
  type ImproveOptions,
  type RunOutcome,
  type SkillRun,
  toTranscript,
} from "./improve.js";
export { type SkillsMiddlewareOptions, skillsMiddleware } from "./middleware.js";
export { createRoleAgent, type DelegateToolOptions, delegateTool, type RoleAgentOptions } from "./roles.js";
export { STATE_KEY } from "./state.js";
