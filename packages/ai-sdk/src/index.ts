// @skillshelf/ai-sdk: skillshelf skills for the Vercel AI SDK 7.
export { createGenerate } from "./generate.js";
export { lastUserText, type Messages, toHistory } from "./history.js";
export {
  type AgentCallArgs,
  type CreateSkillsOptions,
  createSkills,
  type RoleToolOptions,
  type Skills,
  type WrapOptions,
  type WrappedOptions,
} from "./skills.js";
