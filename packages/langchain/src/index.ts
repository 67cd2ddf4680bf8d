// @skillshelf/langchain: skillshelf for LangChain JS `createAgent`.
export { generateFrom } from "./generate.js";
export {
  type ReadPath,
  type SkillRun,
  type SkillsMiddlewareOptions,
  skillsMiddleware,
} from "./middleware.js";
export { createRoleAgent, type DelegateToolOptions, delegateTool, type RoleAgentOptions } from "./roles.js";
export { STATE_KEY } from "./state.js";
