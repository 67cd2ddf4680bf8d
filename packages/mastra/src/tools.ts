/**
 * The two tool transformations the processor applies on every step: core's activation
 * ToolSpecs become Mastra tools bound to this request's session, and the host's tools get
 * an execution-time guard.
 */
import { createTool } from "@mastra/core/tools";
import { runActivationTool, type Session, type ToolSpec } from "@skillshelf/core";

/**
 * A Mastra tool for one of core's activation ToolSpecs. Its input schema is core's JSON
 * Schema (Mastra accepts JSON Schema as a tool schema); its result is core's structured
 * ActivationResult, which stays in the thread so a later turn can rebuild the session.
 */
export function activationTool(spec: ToolSpec, session: Session, onChange: () => void) {
  return createTool({
    id: spec.name,
    description: spec.description,
    // biome-ignore lint/suspicious/noExplicitAny: core's ToolSpec carries plain JSON Schema, which Mastra accepts.
    inputSchema: spec.inputSchema as any,
    execute: async (input: unknown) => {
      const result = runActivationTool(session, spec.name, input);
      onChange();
      return result;
    },
  });
}

/** The shape Mastra hands to input processors: converted tools with `execute(input, context)`. */
type StepTool = { execute?: (input: unknown, context: unknown) => unknown };

/**
 * Wrap each tool's `execute` so that, at the moment it would run, core decides whether it
 * may. A refused call never reaches the tool and returns core's TOOL_NOT_ALLOWED result.
 * This is what holds when the model calls a tool in the same step it activated a skill,
 * or through a path the per-step `activeTools` filter does not see.
 */
export function guardTools(tools: Record<string, unknown>, session: Session): Record<string, unknown> {
  const guarded: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as StepTool | undefined)?.execute;
    if (typeof execute !== "function") {
      guarded[name] = tool;
      continue;
    }
    guarded[name] = {
      ...(tool as object),
      execute: async (input: unknown, context: unknown) => {
        const verdict = session.guard(name);
        if (!verdict.allowed) return verdict.result;
        return execute.call(tool, input, context);
      },
    };
  }
  return guarded;
}
