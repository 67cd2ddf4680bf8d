/**
 * The workflow runner: a skill's steps in order, each by its injected executor (the host's
 * model, a host tool, or a function the host registered), with a timeout, retries of that
 * step only, an output-size guard and a check, and a checkpoint after every step. A run
 * started again with the same `runId` continues after the last checkpointed step; a step
 * in the checkpoint is never run again.
 */
import { createHash } from "node:crypto";
import { declaresParameters } from "../parameters/skill-parameters.js";
import { validateArguments } from "../parameters/validate-arguments.js";
import { currentDateLine } from "../session/substitute.js";
import type { EventIds, Generate, Skill } from "../types.js";
import {
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
import { DEFAULT_MAX_OUTPUT, DEFAULT_STEP_RETRIES, DEFAULT_STEP_TIMEOUT_SECONDS } from "./runner-defaults.js";
import { contractProblems } from "./step-fields.js";
import { type LoadedStep, readStepFiles, resolvedParameterNames } from "./step-files.js";
import { condenseMessages, readVerdict, stepMessages, verifyMessages } from "./step-prompt.js";

export { DEFAULT_MAX_OUTPUT, DEFAULT_STEP_RETRIES, DEFAULT_STEP_TIMEOUT_SECONDS } from "./runner-defaults.js";

/** What an executor is given for one attempt of one step: nothing from the conversation. */
export interface StepRequest {
  skill: string;
  runId: string;
  step: LoadedStep;
  /** The step's declared inputs only: user parameters and earlier steps' outputs. */
  inputs: Record<string, unknown>;
  /** 1 for the first attempt. */
  attempt: number;
  /** Why this step's previous attempt was not accepted. */
  feedback?: string;
  dateLine: string;
  /** Aborted at the step's timeout (or when the run is cancelled). */
  signal: AbortSignal;
}

export type StepFunction = (request: StepRequest) => unknown;
/** A host tool run as a step (`run: tool:<name>`): the step's inputs are its arguments. */
export type StepToolRunner = (name: string, input: Record<string, unknown>, signal: AbortSignal) => unknown;

export interface CheckRequest {
  skill: string;
  runId: string;
  step: LoadedStep;
  output: unknown;
  inputs: Record<string, unknown>;
  signal: AbortSignal;
}
/** A host check (`verify: <its name>`): true/false, or `{ ok, reason }`. */
export type StepCheck = (request: CheckRequest) => unknown;

export interface ConfirmRequest {
  skill: string;
  description: string;
  runId: string;
  params: Record<string, unknown>;
  steps: { id: string; title: string; run: string }[];
}

/** Step progress, as it happens (the run log's records). */
export type WorkflowProgress = WorkflowLogRecord;

export interface WorkflowHost {
  /** The host's model (each adapter's `createGenerate`): runs `model` steps and self-checks. */
  generate?: Generate;
  /** Functions the host registers by name, for `run: <name>`. */
  functions?: Readonly<Record<string, StepFunction>>;
  /** Runs a host tool for `run: tool:<name>`. */
  callTool?: StepToolRunner;
  /** Checks the host registers by name, for `verify: <name>`. */
  checks?: Readonly<Record<string, StepCheck>>;
  /** Asked before a new run starts (not when one resumes); false declines it. */
  confirm?: (request: ConfirmRequest) => boolean | Promise<boolean>;
  /** "auto" runs without asking; "confirm" (the default) asks `confirm`, and declines without one. */
  mode?: "confirm" | "auto";
  /** Checkpoints and the run log (default: kept in memory only, no resume). */
  store?: WorkflowRunStore;
  /** Each step's progress as it happens (for streaming to the user). */
  onProgress?: (event: WorkflowProgress) => void;
  /** Defaults for steps that set nothing (seconds, extra attempts, characters). */
  defaults?: { timeout?: number; retries?: number; maxOutput?: number };
  timeZone?: string;
  now?: () => Date;
}

export interface RunWorkflowOptions extends WorkflowHost {
  skill: Skill;
  params?: Record<string, unknown>;
  /** Resume (or start under) this id; default a new one. */
  runId?: string;
  signal?: AbortSignal;
  /** Recorded on every log line (the conversation this run belongs to). */
  ids?: EventIds;
}

export interface StepReport {
  id: string;
  title: string;
  attempts: number;
  durationMs: number;
  /** Done in an earlier process (read from the checkpoint, not run again). */
  resumed: boolean;
}

export type RefusalReason =
  | "DECLINED"
  | "INVALID_WORKFLOW"
  | "SKILL_CHANGED"
  | "MISSING_PARAMETERS"
  | "INVALID_ARGUMENTS";

export type WorkflowRunResult =
  | { status: "done"; runId: string; skill: string; outputs: Record<string, unknown>; steps: StepReport[] }
  | {
      status: "failed";
      runId: string;
      skill: string;
      failure: StepFailure;
      outputs: Record<string, unknown>;
      steps: StepReport[];
    }
  | { status: "refused"; runId: string; skill: string; reason: RefusalReason; message: string };

class StepError extends Error {
  constructor(
    readonly reason: StepFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** The names a step reads that no earlier step produces: the user must give them. */
function missingParameters(steps: readonly LoadedStep[], params: Record<string, unknown>): string[] {
  const produced = new Set<string>();
  const missing = new Set<string>();
  for (const step of steps) {
    for (const input of step.input)
      if (!produced.has(input) && !Object.hasOwn(params, input)) missing.add(input);
    produced.add(step.output);
  }
  return [...missing];
}

/** The run's skill as it ran: its SKILL.md and every step prompt (a changed prompt is a changed step). */
function workflowHash(skill: Skill, steps: readonly LoadedStep[]): string {
  const hash = createHash("sha256").update(skill.hash);
  for (const step of steps) hash.update(`\u0000${step.file}\u0000${step.prompt}`);
  return hash.digest("hex");
}

function runnerOf(step: LoadedStep): string {
  return step.run ?? "model";
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowRunResult> {
  const { skill } = options;
  const runId = options.runId ?? newRunId(options.now?.());
  assertRunId(runId);
  const refused = (reason: RefusalReason, message: string): WorkflowRunResult => ({
    status: "refused",
    runId,
    skill: skill.name,
    reason,
    message,
  });
  const files = readStepFiles(skill);
  if (!files.ok) return refused("INVALID_WORKFLOW", files.diagnostics.map((d) => d.message).join("; "));
  const steps = files.steps;
  if (steps.length === 0) return refused("INVALID_WORKFLOW", `${skill.name} has no steps`);
  const contract = contractProblems(skill, resolvedParameterNames(skill));
  if (contract.length > 0) return refused("INVALID_WORKFLOW", contract.join("; "));
  const store = options.store ?? memoryRunStore();
  return store.hold(runId, () => execute(options, steps, options.params ?? {}, runId, store, refused));
}

/** A new run's parameters as its steps will get them, or why it cannot start. */
function checkedParameters(
  skill: Skill,
  steps: readonly LoadedStep[],
  given: Record<string, unknown>,
): { ok: true; params: Record<string, unknown> } | { ok: false; reason: RefusalReason; message: string } {
  let params = given;
  if (declaresParameters(skill)) {
    // A typed skill's steps get its arguments as its schema checks them (defaults filled in);
    // `args`, the request as typed, travels beside them.
    const { args, ...values } = params;
    const check = validateArguments(skill, values);
    if (!check.ok) return { ok: false, reason: "INVALID_ARGUMENTS", message: check.result.message };
    params = { ...(args !== undefined && { args }), ...check.values };
  }
  const missing = missingParameters(steps, params);
  if (missing.length > 0) {
    const names = missing.map((m) => `\`${m}\``).join(", ");
    return { ok: false, reason: "MISSING_PARAMETERS", message: `${skill.name} needs ${names}` };
  }
  return { ok: true, params };
}

async function execute(
  options: RunWorkflowOptions,
  steps: readonly LoadedStep[],
  given: Record<string, unknown>,
  runId: string,
  store: WorkflowRunStore,
  refused: (reason: RefusalReason, message: string) => WorkflowRunResult,
): Promise<WorkflowRunResult> {
  const { skill } = options;
  const clock = options.now ?? (() => new Date());
  const log = async (type: WorkflowLogType, extra: Partial<WorkflowLogRecord> = {}) => {
    const record: WorkflowLogRecord = {
      type,
      at: clock().toISOString(),
      run_id: runId,
      skill: skill.name,
      ...extra,
    };
    if (options.ids?.session !== undefined) record.session = options.ids.session;
    if (options.ids?.thread !== undefined) record.thread = options.ids.thread;
    await store.append(record);
    try {
      options.onProgress?.(record);
    } catch {
      // Progress display is the host's; it never fails the run.
    }
  };

  let checkpoint = await store.load(runId);
  if (checkpoint) {
    if (checkpoint.skill !== skill.name || checkpoint.skillHash !== workflowHash(skill, steps)) {
      return refused(
        "SKILL_CHANGED",
        `run ${runId} was started with another version of ${checkpoint.skill}; it is not resumed with different steps`,
      );
    }
    if (checkpoint.status !== "running")
      return resultOf(checkpoint, steps, new Set(checkpoint.completed.map((c) => c.id)));
    await log("run_resume", { message: `${checkpoint.completed.length} of ${steps.length} steps done` });
  } else {
    const checked = checkedParameters(skill, steps, given);
    if (!checked.ok) return refused(checked.reason, checked.message);
    const { params } = checked;
    if (options.mode !== "auto") {
      const request: ConfirmRequest = {
        skill: skill.name,
        description: skill.description,
        runId,
        params,
        steps: steps.map((s) => ({ id: s.id, title: s.title, run: runnerOf(s) })),
      };
      const confirmed = options.confirm ? await options.confirm(request) : false;
      if (confirmed !== true) {
        return refused(
          "DECLINED",
          options.confirm
            ? `the user declined to run ${skill.name}`
            : `${skill.name} was not run: the host asks no one to confirm workflows (set mode "auto" to run them unasked)`,
        );
      }
    }
    const at = clock().toISOString();
    checkpoint = {
      format: 1,
      runId,
      skill: skill.name,
      skillHash: workflowHash(skill, steps),
      params,
      status: "running",
      completed: [],
      startedAt: at,
      updatedAt: at,
    };
    await store.save(checkpoint);
    await log("run_start", { message: `${steps.length} steps` });
  }
  const resumed = new Set(checkpoint.completed.map((c) => c.id));
  const outputs = new Map<string, unknown>(checkpoint.completed.map((c) => [c.output, c.value]));

  for (const [index, step] of steps.entries()) {
    const done = checkpoint.completed[index];
    if (done !== undefined) {
      if (done.id !== step.id) {
        return refused("SKILL_CHANGED", `run ${runId}'s checkpoint does not match ${skill.name}'s steps`);
      }
      continue;
    }
    const inputs: Record<string, unknown> = {};
    // The run's own parameters, as its checkpoint keeps them (a resume needs none given again).
    for (const name of step.input)
      inputs[name] = outputs.has(name) ? outputs.get(name) : checkpoint.params[name];
    const outcome = await runStep(options, step, inputs, runId, clock, log);
    if (!outcome.ok) {
      const failed: WorkflowCheckpoint = {
        ...checkpoint,
        status: "failed",
        failure: outcome.failure,
        updatedAt: clock().toISOString(),
      };
      // A cancelled run is not a failed one: its checkpoint stays resumable.
      if (outcome.failure.reason !== "aborted") await store.save(failed);
      await log("run_failed", {
        step: step.id,
        reason: outcome.failure.reason,
        message: outcome.failure.message,
      });
      return resultOf(failed, steps, resumed);
    }
    const completed: CompletedStep = {
      id: step.id,
      output: step.output,
      value: outcome.value,
      attempts: outcome.attempts,
      durationMs: outcome.durationMs,
    };
    checkpoint = {
      ...checkpoint,
      completed: [...checkpoint.completed, completed],
      updatedAt: clock().toISOString(),
    };
    await store.save(checkpoint);
    outputs.set(step.output, outcome.value);
    await log("step_done", { step: step.id, attempt: outcome.attempts, duration_ms: outcome.durationMs });
  }
  checkpoint = { ...checkpoint, status: "done", updatedAt: clock().toISOString() };
  await store.save(checkpoint);
  await log("run_done");
  return resultOf(checkpoint, steps, resumed);
}

type StepOutcome =
  | { ok: true; value: unknown; attempts: number; durationMs: number }
  | { ok: false; failure: StepFailure };

async function runStep(
  options: RunWorkflowOptions,
  step: LoadedStep,
  inputs: Record<string, unknown>,
  runId: string,
  clock: () => Date,
  log: (type: WorkflowLogType, extra?: Partial<WorkflowLogRecord>) => Promise<void>,
): Promise<StepOutcome> {
  const skill = options.skill;
  const timeoutSeconds =
    step.timeout ?? skill.stepTimeout ?? options.defaults?.timeout ?? DEFAULT_STEP_TIMEOUT_SECONDS;
  const retries = step.retries ?? skill.stepRetries ?? options.defaults?.retries ?? DEFAULT_STEP_RETRIES;
  const maxOutput = step.maxOutput ?? options.defaults?.maxOutput ?? DEFAULT_MAX_OUTPUT;
  const started = performance.now();
  let feedback: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const attemptStart = performance.now();
    await log("step_start", { step: step.id, attempt });
    try {
      const value = await withTimeout(timeoutSeconds, options.signal, (signal) =>
        attemptStep(options, step, inputs, { runId, attempt, feedback, maxOutput, signal, clock }),
      );
      return { ok: true, value, attempts: attempt, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      const failure =
        error instanceof StepError
          ? error
          : new StepError("executor-error", (error as Error)?.message ?? String(error));
      const final = attempt > retries || failure.reason === "no-executor" || failure.reason === "aborted";
      const record = {
        step: step.id,
        attempt,
        duration_ms: Math.round(performance.now() - attemptStart),
        reason: failure.reason,
        message: failure.message.slice(0, 1_000),
      };
      if (final) {
        await log("step_failed", record);
        return {
          ok: false,
          failure: {
            step: step.id,
            title: step.title,
            reason: failure.reason,
            message: failure.message,
            attempts: attempt,
          },
        };
      }
      await log("step_retry", record);
      feedback = failure.message.slice(0, 1_000);
    }
  }
}

/** Runs `task` with a signal aborted at the timeout; a task that ignores its signal is abandoned there. */
async function withTimeout<T>(
  seconds: number,
  outer: AbortSignal | undefined,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StepError("timeout", `the step did not finish within ${seconds} s`);
      controller.abort(error);
      reject(error);
    }, seconds * 1000);
    onAbort = () => {
      const error = new StepError("aborted", "the run was cancelled");
      controller.abort(error);
      reject(error);
    };
    if (outer?.aborted) onAbort();
    else outer?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([task(controller.signal), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) outer?.removeEventListener("abort", onAbort);
  }
}

interface AttemptContext {
  runId: string;
  attempt: number;
  feedback: string | undefined;
  maxOutput: number;
  signal: AbortSignal;
  clock: () => Date;
}

async function attemptStep(
  options: RunWorkflowOptions,
  step: LoadedStep,
  inputs: Record<string, unknown>,
  context: AttemptContext,
): Promise<unknown> {
  const { skill } = options;
  const dateLine = currentDateLine(context.clock(), options.timeZone);
  const run = runnerOf(step);
  let value: unknown;
  if (run === "model") {
    const generate = options.generate;
    if (!generate)
      throw new StepError("no-executor", `step ${step.id} runs on the model, and the host gave none`);
    const messages = stepMessages({
      skill: skill.name,
      id: step.id,
      title: step.title,
      prompt: step.prompt,
      verify: step.verify,
      inputs,
      dateLine,
      feedback: context.feedback,
      maxOutput: context.maxOutput,
    });
    value = (await generate({ ...messages, signal: context.signal })).trim();
    if (typeof value === "string" && value.length > context.maxOutput) {
      // Seed 004's guard: a growing output is condensed by the model, never passed on whole.
      const condensed = (
        await generate({ ...condenseMessages(value, context.maxOutput, dateLine), signal: context.signal })
      ).trim();
      if (condensed.length > context.maxOutput) {
        throw new StepError(
          "output-too-large",
          `the output stayed ${condensed.length} characters after condensing; at most ${context.maxOutput} are passed on`,
        );
      }
      value = condensed;
    }
  } else {
    const request: StepRequest = {
      skill: skill.name,
      runId: context.runId,
      step,
      inputs,
      attempt: context.attempt,
      dateLine,
      signal: context.signal,
    };
    if (context.feedback !== undefined) request.feedback = context.feedback;
    if (run.startsWith("tool:")) {
      if (!options.callTool)
        throw new StepError(
          "no-executor",
          `step ${step.id} runs ${run}, and the host runs no tools for workflows`,
        );
      value = await options.callTool(run.slice(5), { ...inputs }, context.signal);
    } else {
      const fn =
        options.functions && Object.hasOwn(options.functions, run) ? options.functions[run] : undefined;
      if (typeof fn !== "function")
        throw new StepError("no-executor", `no function named ${run} is registered for step ${step.id}`);
      value = await fn(request);
    }
    value = jsonValue(value, step.id);
    const size = typeof value === "string" ? value.length : JSON.stringify(value).length;
    if (size > context.maxOutput) {
      throw new StepError(
        "output-too-large",
        `the output is ${size} characters; at most ${context.maxOutput} are passed on`,
      );
    }
  }
  await verifyStep(options, step, value, inputs, dateLine, context);
  return value;
}

/** Checkpoints are JSON: a value that is not (a function, a cycle) fails its step now, not the resume. */
function jsonValue(value: unknown, stepId: string): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    throw new StepError("executor-error", `step ${stepId} returned a value that is not JSON`);
  }
}

async function verifyStep(
  options: RunWorkflowOptions,
  step: LoadedStep,
  output: unknown,
  inputs: Record<string, unknown>,
  dateLine: string,
  context: AttemptContext,
): Promise<void> {
  if (step.verify === undefined) return;
  const check =
    options.checks && Object.hasOwn(options.checks, step.verify) ? options.checks[step.verify] : undefined;
  if (typeof check === "function") {
    const verdict = await check({
      skill: options.skill.name,
      runId: context.runId,
      step,
      output,
      inputs,
      signal: context.signal,
    });
    const ok =
      verdict === true ||
      (typeof verdict === "object" && verdict !== null && (verdict as { ok?: unknown }).ok === true);
    if (!ok) {
      const reason =
        typeof verdict === "object" && verdict !== null
          ? (verdict as { reason?: unknown }).reason
          : undefined;
      throw new StepError(
        "verify-failed",
        `the check "${step.verify}" failed${typeof reason === "string" ? `: ${reason}` : ""}`,
      );
    }
    return;
  }
  if (!options.generate) {
    // Fail closed: an unchecked step is not a verified one.
    throw new StepError(
      "verify-failed",
      `no check named "${step.verify}" is registered and there is no model to check it`,
    );
  }
  const text = typeof output === "string" ? output : JSON.stringify(output, null, 2);
  const answer = await options.generate({
    ...verifyMessages(step.verify, text, dateLine),
    signal: context.signal,
  });
  const verdict = readVerdict(answer);
  if (!verdict.ok)
    throw new StepError("verify-failed", `the output does not meet "${step.verify}": ${verdict.reason}`);
}

function resultOf(
  checkpoint: WorkflowCheckpoint,
  steps: readonly LoadedStep[],
  resumed: ReadonlySet<string>,
): WorkflowRunResult {
  const titles = new Map(steps.map((s) => [s.id, s.title]));
  const reports: StepReport[] = checkpoint.completed.map((c) => ({
    id: c.id,
    title: titles.get(c.id) ?? c.id,
    attempts: c.attempts,
    durationMs: c.durationMs,
    resumed: resumed.has(c.id),
  }));
  const outputs: Record<string, unknown> = {};
  for (const c of checkpoint.completed) outputs[c.output] = c.value;
  if (checkpoint.status === "failed" && checkpoint.failure) {
    return {
      status: "failed",
      runId: checkpoint.runId,
      skill: checkpoint.skill,
      failure: checkpoint.failure,
      outputs,
      steps: reports,
    };
  }
  return { status: "done", runId: checkpoint.runId, skill: checkpoint.skill, outputs, steps: reports };
}
