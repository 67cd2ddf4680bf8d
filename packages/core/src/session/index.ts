export {
  ACTIVATE_SKILL_TOOL,
  activateSkillToolSpec,
  createToolNameIndex,
  END_SKILL_TOOL_NAMES,
  endSkillToolSpec,
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
export { DEFAULT_SCOPE, END_COMMAND, isContinuation } from "./scope.js";
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
  type OpenSessionOptions,
  type ShelfSessions,
  type ShelfSessionsOptions,
} from "./shelf-sessions.js";
export {
  currentDateLine,
  type SubstituteOptions,
  splitArguments,
  substituteArguments,
} from "./substitute.js";
