/**
 * What the offline model says when a workflow skill's run comes back: the steps' progress and
 * the last output, or which step failed and why. Undefined for any other tool result.
 */
export function workflowReport(output: string): string | undefined {
  let result: unknown;
  try {
    result = JSON.parse(output);
  } catch {
    return undefined;
  }
  const r = result as {
    status?: string;
    error_type?: string;
    message?: string;
    run_id?: unknown;
    data?: { name?: string; progress?: unknown; outputs?: Record<string, unknown> };
  };
  if (r.status === "success" && Array.isArray(r.data?.progress)) {
    const outputs = Object.values(r.data.outputs ?? {});
    const digest =
      outputs.find((o): o is string => typeof o === "string" && o.includes("\n")) ?? outputs.at(-1);
    return `Ran ${r.data.name} step by step:\n${r.data.progress.join("\n")}\n\n${typeof digest === "string" ? digest : JSON.stringify(digest)}`;
  }
  if (r.status === "error" && typeof r.run_id === "string") {
    return `The workflow did not finish: ${r.message}`;
  }
  return undefined;
}
