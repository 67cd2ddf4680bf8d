/**
 * A workflow skill started through its activation tool: core runs the steps and the model
 * reads the run's result, instead of the skill's prose for it to follow. The session calls
 * this once per activation call; adapters only supply their `generate` bridge (the shelf's).
 */
import { createHash } from "node:crypto";
import { escapeFraming } from "../session/render.js";
import { splitArguments } from "../session/substitute.js";
import type { ActivationResult, EventIds, PinnedPolicy, Skill, WorkflowToolResult } from "../types.js";
import { runWorkflow } from "./lazy-runner.js";
import { newRunId, type WorkflowRunStore } from "./run-store.js";
import type { WorkflowHost, WorkflowRunResult } from "./runner.js";

/** The host's side of workflow skills, as the shelf passes it to each session. */
export interface SessionWorkflows extends WorkflowHost {
  store?: WorkflowRunStore;
  /**
   * The run id of an activation. Default: derived from the conversation's thread, the
   * activation call's id and the run's parameters, so a host that replays the same
   * conversation after a crash resumes the same run; a random one when the call has no id.
   */
  runId?: (request: RunIdRequest) => string;
}

export interface RunIdRequest {
  skill: string;
  call?: string;
  thread?: string;
  /** The run's parameters, as the first step would get them. */
  params?: Record<string, unknown>;
}

/**
 * The system note for "/name args" on a workflow skill: nothing is active yet; the model is
 * asked to start the run through the skill's tool, whose answer is the run's result.
 */
export function workflowRequestNote(command: string, tool: string, input: Record<string, unknown>): string {
  return escapeFraming(
    `The user ran ${command}: that skill is a workflow skillshelf runs step by step. Call ${tool} with ${JSON.stringify(input)} once in this turn (unless you already did) to run it, then answer the user from its result; do not do its steps yourself.`,
  );
}

/**
 * The default run id of an activation call: the same call in the same thread with the same
 * parameters, the same run. The parameters are part of it because call ids are only unique
 * per conversation for some providers ("call_0", "1"): in a stateless multi-user host that
 * passes no thread, two conversations must not share a run — a resumed run answers with the
 * outputs of the conversation that started it. Hosts serving several users should still pass
 * `ids.thread` (or their own `runId`).
 */
export function activationRunId(request: RunIdRequest): string {
  if (request.call === undefined) return newRunId();
  const params = request.params === undefined ? "" : stableJson(request.params);
  const digest = createHash("sha256")
    .update(`${request.thread ?? ""}\u0000${request.skill}\u0000${request.call}\u0000${params}`)
    .digest("hex");
  return `run_call_${digest.slice(0, 24)}`;
}

/**
 * The run's parameters from the activation's arguments: a typed skill's checked values
 * (a JSON object), else the words of `args` by the skill's `arguments` names; `args` is
 * always there too, as the user's request in their own words.
 */
export function workflowParams(
  skill: Pick<Skill, "arguments">,
  args: string | undefined,
): Record<string, unknown> {
  const params: Record<string, unknown> = Object.create(null);
  const text = args ?? "";
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const values = JSON.parse(trimmed) as unknown;
      if (values !== null && typeof values === "object" && !Array.isArray(values)) {
        for (const [key, value] of Object.entries(values)) params[key] = value;
        if (!("args" in params)) params.args = text;
        return { ...params };
      }
    } catch {
      // Not JSON: words, as below.
    }
  }
  const words = splitArguments(text);
  skill.arguments.forEach((name, index) => {
    if (index < words.length) params[name] = words[index];
  });
  params.args = text;
  return { ...params };
}

/** A step's line as the user and the model see it (timings stay in the run log: they would make two runs read differently). */
function progressLine(
  step: { id: string; title: string; attempts: number; resumed: boolean },
  index: number,
  total: number,
): string {
  const name = step.title === step.id ? step.id : `${step.title} (${step.id})`;
  const notes = [
    step.attempts > 1 ? `${step.attempts} attempts` : "",
    step.resumed ? "done before a restart" : "",
  ];
  const note = notes.filter((n) => n !== "").join(", ");
  return `✓ ${index + 1}/${total} ${name}${note === "" ? "" : ` — ${note}`}`;
}

/** What the model reads of the outputs, at most (a 50-step run must not flood its context). */
export const MAX_RESULT_OUTPUT_CHARS = 20_000;

/** The outputs, last first into the budget: an earlier one that does not fit is named, not shown. */
function withinBudget(outputs: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(outputs);
  const shown: Record<string, unknown> = {};
  let left = MAX_RESULT_OUTPUT_CHARS;
  for (const name of [...names].reverse()) {
    const value = outputs[name];
    const size = typeof value === "string" ? value.length : JSON.stringify(value).length;
    if (size <= left) {
      shown[name] = value;
      left -= size;
    } else shown[name] = `(${size} characters, kept in the run's checkpoint)`;
  }
  return Object.fromEntries(names.map((name) => [name, shown[name]]));
}

/** The runner's result as the model reads it. */
export function workflowToolResult(
  skill: Skill,
  result: WorkflowRunResult,
  activation?: Extract<ActivationResult, { status: "success" }>,
): WorkflowToolResult {
  const total = skill.steps?.length ?? 0;
  if (result.status === "refused") {
    const type = result.reason === "DECLINED" ? "DECLINED" : result.reason;
    const next =
      type === "DECLINED"
        ? "Do not run its steps yourself; tell the user it was not run."
        : type === "MISSING_PARAMETERS"
          ? "Ask the user for them, then call the skill's tool again with them."
          : "Tell the user; do not run its steps yourself.";
    return {
      status: "error",
      error_type: type,
      run_id: result.runId,
      message: `${result.message}. ${next}`,
      ...pinOf(activation),
    };
  }
  const progress = result.steps.map((s, i) => progressLine(s, i, total));
  if (result.status === "failed") {
    const { failure } = result;
    const position = (skill.steps?.findIndex((s) => s.id === failure.step) ?? -1) + 1;
    progress.push(`✗ ${position}/${total} ${failure.title} — ${failure.reason}`);
    return {
      status: "error",
      error_type: "STEP_FAILED",
      run_id: result.runId,
      step: failure.step,
      reason: failure.reason,
      completed: result.steps.map((s) => s.id),
      message: `Step ${position} of ${total} of "${skill.name}" (${failure.step}) failed after ${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"}: ${failure.reason}: ${failure.message}. ${progress.join("; ")}. Tell the user which step failed and why; do not redo the steps yourself.`,
      ...pinOf(activation),
    };
  }
  return {
    status: "success",
    data: {
      name: skill.name,
      run_id: result.runId,
      steps: result.steps.map((s) => ({
        id: s.id,
        title: s.title,
        attempts: s.attempts,
        resumed: s.resumed,
      })),
      outputs: withinBudget(result.outputs),
      progress,
      ...(activation?.data.policy && { policy: activation.data.policy }),
      ...(checkedArguments(activation) && { arguments: checkedArguments(activation) }),
    },
    message: `The workflow "${skill.name}" ran all ${total} steps (run ${result.runId}). Its outputs are in data.outputs; report the last one to the user.`,
  };
}

/**
 * The activation's pinned limits, on a run that did not finish too: the skill stays ended
 * under them until the user's next message, and a rebuilt history reads them from here.
 */
function pinOf(activation: Extract<ActivationResult, { status: "success" }> | undefined): {
  policy?: PinnedPolicy;
} {
  return activation?.data.policy ? { policy: activation.data.policy } : {};
}

/** A typed skill's arguments as its parameters checked them (defaults filled in). */
function checkedArguments(
  activation: Extract<ActivationResult, { status: "success" }> | undefined,
): Record<string, unknown> | undefined {
  return (activation?.data as { arguments?: Record<string, unknown> } | undefined)?.arguments;
}

/** Runs the workflow an activation started, and answers the activation call with its result. */
export async function runActivatedWorkflow(input: {
  skill: Skill;
  activation: Extract<ActivationResult, { status: "success" }>;
  args: string | undefined;
  /** The activation call's id. */
  call?: string;
  host: SessionWorkflows;
  ids?: EventIds;
  now?: () => Date;
  timeZone?: string;
}): Promise<WorkflowToolResult> {
  const { skill, host } = input;
  const checked = checkedArguments(input.activation);
  const params = checked ? { ...checked, args: input.args ?? "" } : workflowParams(skill, input.args);
  try {
    const request: RunIdRequest = { skill: skill.name, call: input.call, thread: input.ids?.thread, params };
    const result = await runWorkflow({
      ...host,
      skill,
      params,
      runId: (host.runId ?? activationRunId)(request),
      ...(input.ids && { ids: input.ids }),
      ...(host.now === undefined && input.now && { now: input.now }),
      ...(host.timeZone === undefined && input.timeZone !== undefined && { timeZone: input.timeZone }),
    });
    return workflowToolResult(skill, result, input.activation);
  } catch (error) {
    // The store failed (a full disk, a lock held too long): a structured answer, never a throw into the host's loop.
    return {
      status: "error",
      error_type: "INVALID_WORKFLOW",
      run_id: "",
      message: `The workflow "${skill.name}" could not run: ${(error as Error)?.message ?? String(error)}. Tell the user.`,
      ...pinOf(input.activation),
    };
  }
}

/** JSON with object keys sorted, so equal parameters give equal text whatever their order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
