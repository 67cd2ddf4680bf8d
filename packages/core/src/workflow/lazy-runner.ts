/**
 * `runWorkflow`, with the runner loaded on the first run: loading a shelf and planning never
 * run a workflow, so a fresh import does not compile it. The runner is async already; the
 * caller sees the same function.
 */
import type { RunWorkflowOptions, WorkflowRunResult } from "./runner.js";

export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowRunResult> {
  const runner = await import("./runner.js");
  return runner.runWorkflow(options);
}
