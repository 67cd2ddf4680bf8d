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
export {
  type CheckRequest,
  type ConfirmRequest,
  DEFAULT_MAX_OUTPUT,
  DEFAULT_STEP_RETRIES,
  DEFAULT_STEP_TIMEOUT_SECONDS,
  type RefusalReason,
  type RunWorkflowOptions,
  runWorkflow,
  type StepCheck,
  type StepFunction,
  type StepReport,
  type StepRequest,
  type StepToolRunner,
  type WorkflowHost,
  type WorkflowProgress,
  type WorkflowRunResult,
} from "./runner.js";
export { stepFileName } from "./step-fields.js";
export { checkStepFiles, type LoadedStep, readStepFiles } from "./step-files.js";
