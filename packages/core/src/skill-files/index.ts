export { confine, relativeSkillPath } from "./confine.js";
export { PAGE_BYTES, readSkillFilePage } from "./reader.js";
export {
  DEFAULT_SCRIPT_ENV,
  DEFAULT_SCRIPT_OUTPUT,
  DEFAULT_SCRIPT_TIMEOUT_MS,
  runSkillScript,
  type ScriptOptions,
  type ScriptRequest,
} from "./scripts.js";
