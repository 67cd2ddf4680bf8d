// @skillshelf/mastra: skillshelf skills for Mastra agents.

export { mastraGenerate } from "./generate.js";
export { toHistory } from "./history.js";
export { checkNativeSkills, MASTRA_SKILL_TOOLS } from "./native-skills.js";
export { createSkillsProcessor, type SkillsProcessorOptions } from "./processor.js";
export {
  createDelegateTool,
  createDelegateTools,
  createRoleAgents,
  type RoleAgentsOptions,
} from "./roles.js";
export { type CreateSkillsOptions, createSkills, type Skills } from "./skills.js";
export { guardTools, skillTool } from "./tools.js";
