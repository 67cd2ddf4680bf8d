/**
 * Where a workflow run's state is kept between steps: the checkpoint (what is done, with
 * its outputs) and the run log. An interface, so the file store under the state folder and
 * a database store behave the same to the runner.
 */

/** One step that finished: its output is final and is never produced again for this run. */
export interface CompletedStep {
  id: string;
  output: string;
  /** The output's value (text from a model; any JSON value from a function or tool). */
  value: unknown;
  attempts: number;
  durationMs: number;
}

export interface StepFailure {
  step: string;
  title: string;
  reason: StepFailureReason;
  message: string;
  attempts: number;
}

export type StepFailureReason =
  | "timeout"
  | "verify-failed"
  | "output-too-large"
  | "executor-error"
  | "no-executor"
  | "aborted";

/** Plain JSON, written whole after every step. */
export interface WorkflowCheckpoint {
  format: 1;
  runId: string;
  skill: string;
  /** sha256 over the SKILL.md and the step prompts the run started with: a changed workflow is not resumed. */
  skillHash: string;
  params: Record<string, unknown>;
  status: "running" | "done" | "failed";
  completed: CompletedStep[];
  failure?: StepFailure;
  startedAt: string;
  updatedAt: string;
}

export type WorkflowLogType =
  | "run_start"
  | "run_resume"
  | "step_start"
  | "step_retry"
  | "step_done"
  | "step_failed"
  | "run_done"
  | "run_failed";

/** One line of a run's JSONL log. */
export interface WorkflowLogRecord {
  type: WorkflowLogType;
  at: string;
  run_id: string;
  skill: string;
  step?: string;
  attempt?: number;
  duration_ms?: number;
  reason?: string;
  message?: string;
  session?: string;
  thread?: string;
}

export interface WorkflowRunStore {
  /** The run's checkpoint, or undefined when it has none. Throws when it cannot be read (never guess). */
  load(runId: string): Promise<WorkflowCheckpoint | undefined>;
  /** Replaces the checkpoint whole: a crash leaves the old one or the new one, never a mix. */
  save(checkpoint: WorkflowCheckpoint): Promise<void>;
  append(record: WorkflowLogRecord): Promise<void>;
  /** Runs `task` as the run's only executor across processes (a second one waits). */
  hold<T>(runId: string, task: () => Promise<T>): Promise<T>;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Run ids name files and rows: letters, digits, `-` and `_` only. */
export function assertRunId(runId: string): void {
  if (!RUN_ID.test(runId)) throw new Error(`invalid run id ${JSON.stringify(runId.slice(0, 40))}`);
}

/** A run id no other run has: time first (they sort), then randomness. */
export function newRunId(now: Date = new Date()): string {
  const random = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, "0");
  return `run_${now.toISOString().replace(/[-:.]/g, "").replace("T", "_").slice(0, 15)}_${random}`;
}

/** A store that keeps nothing past the process (for hosts that do not want resume). */
export function memoryRunStore(): WorkflowRunStore & { log: WorkflowLogRecord[] } {
  const checkpoints = new Map<string, string>();
  const log: WorkflowLogRecord[] = [];
  const tails = new Map<string, Promise<unknown>>();
  return {
    log,
    async load(runId) {
      const text = checkpoints.get(runId);
      return text === undefined ? undefined : (JSON.parse(text) as WorkflowCheckpoint);
    },
    async save(checkpoint) {
      checkpoints.set(checkpoint.runId, JSON.stringify(checkpoint));
    },
    async append(record) {
      log.push(record);
    },
    hold(runId, task) {
      const run = (tails.get(runId) ?? Promise.resolve()).then(task, task);
      tails.set(
        runId,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}
