/**
 * Execution-time enforcement. Every host tool stays registered and active for the AI SDK
 * (the tools a skill hides are taken out of what the provider is sent instead), so a call to
 * a hidden tool — a model remembers tools from earlier in the conversation — reaches this
 * `execute`: core guards it and the model reads core's structured refusal as the result.
 * An allowed call runs inside the session, so a delegation it starts is bounded by it.
 */
import { isBlockedResult, refusalError, refusesTool, runHostTool } from "@skillshelf/core/adapter";
import { asSchema, type FlexibleSchema, jsonSchema, type Tool, type ToolSet } from "ai";
import type { StepSessions } from "./step-sessions.js";

export function guardTools<TOOLS extends ToolSet>(tools: TOOLS, sessions: StepSessions): TOOLS {
  const guarded: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools)) guarded[name] = guardTool(name, tool, sessions);
  return guarded as TOOLS;
}

function guardTool(name: string, tool: Tool, sessions: StepSessions): Tool {
  const execute = tool.execute;
  if (!execute) {
    // A provider's own tool runs at the provider before anyone sees the call: hiding it is
    // all that can be done. A tool the host's client runs is stopped at the SDK's input check.
    if (tool.type === "provider" || tool.inputSchema === undefined) return tool;
    return { ...tool, inputSchema: refusedBeforeTheClient(name, tool.inputSchema, sessions) } as Tool;
  }
  const toModelOutput = tool.toModelOutput;
  return {
    ...tool,
    ...(tool.inputSchema !== undefined && {
      inputSchema: checkedUnlessRefused(name, tool.inputSchema, sessions),
    }),
    // Synchronous on purpose: the tool's own return value (a promise, an AsyncIterable that
    // streams) comes back untouched.
    execute: (input: unknown, options) =>
      runHostTool(sessions.of(options.messages), { id: options.toolCallId, name, input }, () =>
        execute(input as never, options),
      ),
    // A host's toModelOutput expects its tool's own output, never core's refusal.
    ...(toModelOutput && {
      toModelOutput: (options) =>
        isBlockedResult(options.output) ? { type: "json", value: options.output } : toModelOutput(options),
    }),
  } as Tool;
}

/**
 * The tool's own input check, skipped for a call the step's session refuses whatever its
 * input (core's `refusesTool`). The SDK checks a call's input before `execute`: its
 * InvalidToolInputError would describe the schema of a tool the skill hides (every field,
 * its type), and the call would never reach the guard. Skipped, it does, and reads core's
 * TOOL_NOT_ALLOWED, as in every framework. The schema the provider is sent is the tool's own.
 */
function checkedUnlessRefused(name: string, schema: FlexibleSchema<unknown>, sessions: StepSessions) {
  const own = asSchema(schema);
  return jsonSchema(() => own.jsonSchema as ReturnType<typeof asSchema>["jsonSchema"], {
    validate: async (value: unknown) => {
      const session = sessions.current();
      if ((session && refusesTool(session, name)) || !own.validate) return { success: true as const, value };
      return own.validate(value);
    },
  });
}

/**
 * A tool without `execute` is one the host's client runs: the SDK does not run it, it hands
 * the call to the host (`toolCalls`, the UI stream), so no `execute` can guard it. Its input
 * check is where the SDK still asks: a call the step's session refuses fails it with core's
 * refusal (and the `tool-blocked` event), so the call reads as failed and never reaches the
 * client; the model reads core's TOOL_NOT_ALLOWED (the prompt carries it as the refusal).
 */
function refusedBeforeTheClient(name: string, schema: FlexibleSchema<unknown>, sessions: StepSessions) {
  const own = asSchema(schema);
  return jsonSchema(() => own.jsonSchema as ReturnType<typeof asSchema>["jsonSchema"], {
    validate: async (value: unknown) => {
      const verdict = sessions.current()?.guard({ name, input: value });
      if (verdict && !verdict.allowed)
        return { success: false as const, error: refusalError(verdict.result) };
      return own.validate ? own.validate(value) : { success: true as const, value };
    },
  });
}
