export { currentRequestNote } from "./current-request.js";
export { MAX_ARGUMENTS_LENGTH } from "./limits.js";
export {
  declaresParameters,
  type ParameterReport,
  SCHEMA_FILE,
  type SkillParameters,
  skillParameters,
} from "./skill-parameters.js";
export type {
  ArgumentProblem,
  ArgumentsCheck,
  InvalidArgumentsResult,
  ParameterSchema,
  ParameterSource,
  ValidArguments,
} from "./types.js";
export {
  argumentsFromText,
  recordedArguments,
  recordedArgumentsText,
  validateArguments,
} from "./validate-arguments.js";
