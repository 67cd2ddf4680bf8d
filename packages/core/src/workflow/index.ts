export {
  activationRunId,
  type RunIdRequest,
  runActivatedWorkflow,
  type SessionWorkflows,
  workflowParams,
  workflowToolResult,
} from "./activation.js";
export { inDomain, skillDomain } from "./domain.js";
export { createFileRunStore, WORKFLOWS_DIR } from "./file-run-store.js";
export { runWorkflow } from "./lazy-runner.js";
export {
  assertRunId,
  type CompletedStep,
  memoryRunStore,
  newRunId,
  type StepFailure,
  type StepFailureReason,
  type WorkflowCheckpoint,
  type WorkflowLogRecord,
  type WorkflowLogType,
  type WorkflowRunStore,
} from "./run-store.js";
export type {
  CheckRequest,
  ConfirmRequest,
  RefusalReason,
  RunWorkflowOptions,
  StepCheck,
  StepFunction,
  StepReport,
  StepRequest,
  StepToolRunner,
  WorkflowHost,
  WorkflowProgress,
  WorkflowRunResult,
} from "./runner.js";
export { DEFAULT_MAX_OUTPUT, DEFAULT_STEP_RETRIES, DEFAULT_STEP_TIMEOUT_SECONDS } from "./runner-defaults.js";
export { stepFileName } from "./step-fields.js";
export { checkStepFiles, type LoadedStep, readStepFiles } from "./step-files.js";
