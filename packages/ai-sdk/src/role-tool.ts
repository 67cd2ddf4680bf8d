/**
 * Roles as sub-agents: one delegation tool, `{ role, task }`, that runs a `ToolLoopAgent`
 * with the role's instructions, only the tools its `allowed-tools` admits, and its model.
 * Role skills a user writes (`role: true` in SKILL.md) appear exactly like the builtin ones,
 * because both come from `shelf.roles()`; core names the tool (never after one of the host's),
 * checks the call, resolves the tools, records the delegation and shapes the answer.
 */
import { hostDelegationSpec, type OnDiagnostic, runDelegation, type Shelf } from "@skillshelf/core";
import { jsonSchema, type Tool, ToolLoopAgent, type ToolSet, tool } from "ai";
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
    // The enum in the schema is a hint; core checks the role again at call time.
    inputSchema: jsonSchema<{ role: string; task: string }>(spec.inputSchema),
    execute: (input, { abortSignal }) =>
      runDelegation(shelf, input, {
        tools: Object.keys(available),
        onDiagnostic: report,
        run: async ({ task, tools, instructions, model }) => {
          const agent = new ToolLoopAgent({
            model: (model && options.resolveModel?.(model)) || options.model,
            instructions,
            tools: Object.fromEntries(tools.map((name) => [name, available[name]])) as ToolSet,
            ...(options.stopWhen && { stopWhen: options.stopWhen }),
          });
          return (await agent.generate({ prompt: task, abortSignal })).text;
        },
      }),
  });
  return { name: spec.name, tool: delegate };
}
