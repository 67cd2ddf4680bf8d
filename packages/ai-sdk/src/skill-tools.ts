/**
 * skillshelf's own tools (`skill_<name>`, `activate_skill`, `end_skill`) as AI SDK tools.
 * Core answers every call; the result is the one `respond` computed when the response
 * arrived, so every call of a response saw the same activations. A call to a skill tool
 * registered earlier that no longer names one (the skill was removed) reads core's NOT_FOUND.
 */
import type { ToolSpec } from "@skillshelf/core";
import { runSkillTool } from "@skillshelf/core/adapter";
import { jsonSchema, type Tool, tool } from "ai";
import type { StepSessions } from "./step-sessions.js";

export function skillTool(spec: ToolSpec, sessions: StepSessions): Tool {
  return tool({
    description: spec.description,
    // No validation here: core checks the input and answers a bad one with a result the
    // model can act on (a schema failure would be the SDK's unstructured error instead).
    inputSchema: jsonSchema<unknown>(spec.inputSchema),
    execute: (input, { toolCallId, messages }) =>
      runSkillTool(sessions.of(messages), { id: toolCallId, name: spec.name, input }),
  });
}
