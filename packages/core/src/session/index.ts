export {
  ACTIVATE_SKILL_TOOL,
  activateSkillToolSpec,
  createToolNameIndex,
  SKILL_TOOL_PREFIX,
  skillToolDescription,
  skillToolName,
  skillToolSpec,
  TOOL_NAME_PATTERN,
  type ToolNameIndex,
} from "./activation-tools.js";
export {
  closestSkillNames,
  type ExplicitInvocation,
  parseExplicitInvocation,
  resolveInvokedSkill,
} from "./explicit-invocation.js";
export { sessionFromHistory } from "./from-history.js";
export {
  createSession,
  type SessionCatalog,
  type SessionMatcher,
  type SessionOptions,
  type UsageRecorder,
} from "./session.js";
export {
  createShelfSessions,
  EVENTS_FILE,
  type SessionOverrides,
  type ShelfSessions,
  type ShelfSessionsOptions,
} from "./shelf-sessions.js";
export {
  currentDateLine,
  type SubstituteOptions,
  splitArguments,
  substituteArguments,
} from "./substitute.js";
