/**
 * A workflow run's step progress as the adapters stream it: one neutral payload decided
 * here (each adapter only hands it to its framework's own streaming), and the routing that
 * brings a run's steps to the tool call that started it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { WorkflowStep } from "../types.js";
import type { StepFailureReason } from "../workflow/run-store.js";
import type { WorkflowProgress } from "../workflow/runner.js";

export const WORKFLOW_PROGRESS_TYPE = "skillshelf-workflow";

/**
 * One step's progress: ids, position, status and timing only. A step's output, and the text
 * of why it failed, stay out (they may hold what a hostile model or skill wrote; the run's
 * result already shows the model what it may see).
 */
export interface WorkflowProgressEvent {
  type: typeof WORKFLOW_PROGRESS_TYPE;
  run_id: string;
  skill: string;
  step: string;
  /** 1 for the first step, as the result's progress lines count. */
  index: number;
  of: number;
  status: "start" | "retry" | "done" | "failed";
  attempt?: number;
  /** The attempt's duration (retry, failed) or the step's (done). */
  ms?: number;
  /** Why an attempt was not accepted (retry, failed). */
  reason?: StepFailureReason;
}

/** Is this chunk of a stream (a preliminary tool result, a custom chunk, a tool output) a step's progress? */
export function isWorkflowProgressEvent(value: unknown): value is WorkflowProgressEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Partial<WorkflowProgressEvent>;
  return (
    event.type === WORKFLOW_PROGRESS_TYPE &&
    typeof event.step === "string" &&
    typeof event.run_id === "string"
  );
}

const STATUS_OF: Partial<Record<WorkflowProgress["type"], WorkflowProgressEvent["status"]>> = {
  step_start: "start",
  step_retry: "retry",
  step_done: "done",
  step_failed: "failed",
};

const REASONS: ReadonlySet<string> = new Set<StepFailureReason>([
  "timeout",
  "verify-failed",
  "output-too-large",
  "executor-error",
  "no-executor",
  "aborted",
]);

/**
 * What a runner's progress record says to a stream, or undefined for what is not a step's
 * (the run's start and end: the tool result itself ends the stream).
 */
export function workflowProgressEvent(
  progress: WorkflowProgress,
  steps: readonly Pick<WorkflowStep, "id">[],
): WorkflowProgressEvent | undefined {
  const status = STATUS_OF[progress.type];
  if (status === undefined || progress.step === undefined) return undefined;
  const position = steps.findIndex((s) => s.id === progress.step);
  if (position < 0) return undefined;
  const event: WorkflowProgressEvent = {
    type: WORKFLOW_PROGRESS_TYPE,
    run_id: progress.run_id,
    skill: progress.skill,
    step: progress.step,
    index: position + 1,
    of: steps.length,
    status,
  };
  if (progress.attempt !== undefined) event.attempt = progress.attempt;
  if (status !== "start" && progress.duration_ms !== undefined) event.ms = progress.duration_ms;
  if (progress.reason !== undefined && REASONS.has(progress.reason)) {
    event.reason = progress.reason as StepFailureReason;
  }
  return event;
}

export type WorkflowProgressListener = (event: WorkflowProgressEvent) => void;

interface ListeningCall {
  listener: WorkflowProgressListener;
  started: boolean;
}

const listening = new AsyncLocalStorage<ListeningCall>();

/**
 * Runs one skill tool call with a listener for the steps of a workflow run it starts.
 * `started` says whether it started one (a call answered from an earlier run, a script or
 * a plain activation streams nothing), so an adapter can answer as it did before.
 */
export function listenForWorkflowProgress<T>(
  listener: WorkflowProgressListener,
  call: () => T,
): { value: T; started: boolean } {
  const scope: ListeningCall = { listener, started: false };
  const value = listening.run(scope, call);
  return { value, started: scope.started };
}

/**
 * The `onProgress` a session gives the run it starts: the host's own callback, then the
 * listener of the tool call that started the run (taken now, when the call starts it, so
 * nothing later depends on the framework keeping async context). Neither can fail the run.
 */
export function workflowProgressRelay(
  steps: readonly Pick<WorkflowStep, "id">[],
  hostOnProgress: ((progress: WorkflowProgress) => void) | undefined,
): ((progress: WorkflowProgress) => void) | undefined {
  const call = listening.getStore();
  if (call) call.started = true;
  const listener = call?.listener;
  if (!listener) return hostOnProgress;
  return (progress) => {
    try {
      hostOnProgress?.(progress);
    } catch {
      // The host's display: it never fails the run.
    }
    const event = workflowProgressEvent(progress, steps);
    if (!event) return;
    try {
      listener(event);
    } catch {
      // A stream consumer that went away: the run goes on, and its result is still the answer.
    }
  };
}
