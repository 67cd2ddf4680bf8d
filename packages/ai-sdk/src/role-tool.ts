/**
 * Roles as sub-agents: one `delegate` tool, `{ role, task }`, that runs a `ToolLoopAgent`
 * with the role's instructions, only the tools its `allowed-tools` admits, and its model.
 * Role skills a user writes (`role: true` in SKILL.md) appear exactly like the builtin ones,
 * because both come from `shelf.roles()`; core checks the call, resolves the tools and
 * records the delegation.
 */
import { delegationToolSpec, type Shelf } from "@skillshelf/core";
import { jsonSchema, type Tool, ToolLoopAgent, type ToolSet, tool } from "ai";
import type { RoleToolOptions } from "./skills.js";

export function createRoleTool(shelf: Shelf, options: RoleToolOptions): Tool<{ role: string; task: string }> {
  const spec = delegationToolSpec(shelf.roles());
  if (!spec) {
    throw new Error(
      "skills.roleTool(): the shelf has no roles. Add a skill with `role: true`, or keep the builtin roles (builtinRoles).",
    );
  }
  const available: ToolSet = options.tools ?? {};
  return tool({
    description: spec.description,
    // The enum in the schema is a hint; core checks the role again at call time.
    inputSchema: jsonSchema<{ role: string; task: string }>(spec.inputSchema),
    execute: async (input, { abortSignal }) => {
      const prepared = shelf.prepareDelegation(input, Object.keys(available));
      if (prepared.status === "error") return prepared;
      const { role, task, tools, instructions, model } = prepared.data;
      const agent = new ToolLoopAgent({
        model: (model && options.resolveModel?.(model)) || options.model,
        instructions,
        tools: Object.fromEntries(tools.map((name) => [name, available[name]])) as ToolSet,
        ...(options.stopWhen && { stopWhen: options.stopWhen }),
      });
      const result = await agent.generate({ prompt: task, abortSignal });
      return {
        status: "success" as const,
        data: { role: role.name, text: result.text, tools },
        message: `The ${role.name} sub-agent finished; its answer is data.text.`,
      };
    },
  });
}
