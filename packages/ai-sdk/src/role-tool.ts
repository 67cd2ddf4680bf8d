/**
 * Roles as sub-agents: one delegation tool, `{ role, task }`, that runs a `ToolLoopAgent`
 * built only from core's `Delegation`: its instructions (with the date line), the host tools
 * it gets, its model and its step limit. Core names the tool (never after one of the host's),
 * checks the call, resolves the tools — bounded by the skills active in the conversation
 * that delegates, because this tool runs as a guarded host tool inside that session —
 * records the delegation and shapes the answer. Each call the sub-agent makes is judged by
 * the delegation's guard first, as the lead's calls are.
 */

import type { Shelf } from "@skillshelf/core";
import {
  answeringUnknownTools,
  hostDelegationSpec,
  type OnDiagnostic,
  runDelegation,
  subAgentUnknownTool,
} from "@skillshelf/core/adapter";
import { jsonSchema, stepCountIs, type Tool, ToolLoopAgent, type ToolSet, tool } from "ai";
import { guarded } from "./fork-agent.js";
import type { RoleToolOptions } from "./skills.js";

type DelegateTool = Tool<{ role: string; task: string }>;

/** The delegation tool keyed by core's name for it: `delegate`, unless the host has one. */
export function createRoleTools(
  shelf: Shelf,
  options: RoleToolOptions,
  report?: OnDiagnostic,
): Record<string, DelegateTool> {
  const { name, tool } = roleTool(shelf, options, report);
  return { [name]: tool };
}

export function createRoleTool(shelf: Shelf, options: RoleToolOptions, report?: OnDiagnostic): DelegateTool {
  return roleTool(shelf, options, report).tool;
}

function roleTool(shelf: Shelf, options: RoleToolOptions, report?: OnDiagnostic) {
  const available: ToolSet = options.tools ?? {};
  const spec = hostDelegationSpec(shelf.roles(), Object.keys(available));
  const delegate = tool({
    description: spec.description,
    inputSchema: jsonSchema<{ role: string; task: string }>(spec.inputSchema),
    execute: (input, { abortSignal }) =>
      runDelegation(shelf, input, {
        tools: Object.keys(available),
        onDiagnostic: report,
        run: async (delegation) => {
          const { task, tools, instructions, model, maxSteps } = delegation;
          const agent = new ToolLoopAgent({
            // A call of a tool it was not given reads the delegation's refusal, as in every framework.
            model: answeringUnknownTools(
              (model && options.resolveModel?.(model)) || options.model,
              subAgentUnknownTool(delegation),
            ),
            instructions,
            // Each call judged as the lead's are (a write into a skill folder is refused).
            tools: Object.fromEntries(
              tools.flatMap((name) =>
                available[name] ? [[name, guarded(delegation, name, available[name])]] : [],
              ),
            ) as ToolSet,
            stopWhen: options.stopWhen ?? stepCountIs(maxSteps),
          });
          return (await agent.generate({ prompt: task, abortSignal })).text;
        },
      }),
  });
  return { name: spec.name, tool: delegate };
}
