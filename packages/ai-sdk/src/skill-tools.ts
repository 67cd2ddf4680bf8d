/**
 * skillshelf's own tools (`skill_<name>`, `activate_skill`, `end_skill`) as AI SDK tools.
 * Core answers every call; the result is the one `respond` computed when the response
 * arrived, so every call of a response saw the same activations. A call to a skill tool
 * registered earlier that no longer names one (the skill was removed) reads core's NOT_FOUND.
 * A workflow skill's call streams its run's steps as preliminary results before that result.
 */
import type { Fork, ToolSpec } from "@skillshelf/core";
import { type OnDiagnostic, runSkillTool } from "@skillshelf/core/adapter";
import { jsonSchema, type Tool, tool } from "ai";
import type { StepSessions } from "./step-sessions.js";
import { withStepProgress } from "./workflow-progress.js";

export interface SkillToolOptions {
  /** Runs a `context: fork` skill's sub-agent; without it such a skill reads FORK_UNAVAILABLE. */
  fork?: (fork: Fork, abortSignal?: AbortSignal) => Promise<string>;
  onDiagnostic?: OnDiagnostic;
}

export function skillTool(spec: ToolSpec, sessions: StepSessions, options: SkillToolOptions = {}): Tool {
  const { fork, onDiagnostic } = options;
  return tool({
    description: spec.description,
    // No validation here: core checks the input and answers a bad one with a result the
    // model can act on (a schema failure would be the SDK's unstructured error instead).
    inputSchema: jsonSchema<unknown>(spec.inputSchema),
    // Not async: a workflow run answers with an async iterable (its steps, then its result).
    execute: (input, { toolCallId, messages, abortSignal }) => {
      try {
        return withStepProgress(() =>
          runSkillTool(
            sessions.of(messages),
            { id: toolCallId, name: spec.name, input },
            {
              ...(fork && { fork: (f: Fork) => fork(f, abortSignal) }),
              ...(onDiagnostic && { onDiagnostic }),
            },
          ),
        );
      } catch (error) {
        return Promise.reject(error);
      }
    },
  });
}
