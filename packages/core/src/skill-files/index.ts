// What a host configures; the reader and the runner are reached through a session's skill tools.
export { PAGE_BYTES } from "./reader.js";
export {
  DEFAULT_SCRIPT_ENV,
  DEFAULT_SCRIPT_OUTPUT,
  DEFAULT_SCRIPT_TIMEOUT_MS,
  type ScriptOptions,
  type ScriptRequest,
} from "./scripts.js";
