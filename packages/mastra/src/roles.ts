/**
 * Role skills as Mastra sub-agents. A role skill (`role: true`) is a sub-agent written in
 * Markdown: body = instructions, `allowed-tools` = its only tools, optional `model`. Mastra's
 * own way to hand sub-agents to an orchestrator is `agents: {…}` (each becomes an
 * `agent-<name>` tool); `delegate` is the `{ role, task }` tool every skillshelf adapter
 * offers. Core resolves each role's tools and checks delegation calls; this file only builds
 * Mastra agents from what core returns.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { createTool } from "@mastra/core/tools";
import {
  currentDateLine,
  type Diagnostic,
  delegationToolSpec,
  type Role,
  resolveRoleTools,
  type Shelf,
} from "@skillshelf/core";

export interface RoleAgentsOptions {
  /** The model a role runs on when it names none (or one `resolveModel` cannot map). */
  model: MastraModelConfig;
  /** The tools roles pick from, by name; each role gets only those its `allowed-tools` admits. */
  tools?: Record<string, unknown>;
  /**
   * Map a role's `model` field to a Mastra model. Default: "provider/model" ids go to
   * Mastra's model router as they are; anything else falls back to `model`.
   */
  resolveModel?: (id: string) => MastraModelConfig | undefined;
  /** Steps a role agent may take per task (default 10). */
  maxSteps?: number;
  /** Whitelist entries that admit none of `tools`. Default: console.warn. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

const routerModel = (id: string): MastraModelConfig | undefined => (id.includes("/") ? id : undefined);

interface RoleAgentInput {
  name: string;
  description: string;
  /** Fixed text, or (for long-lived agents) a function so the date line stays current. */
  instructions: string | (() => string);
  tools: readonly string[];
  model?: string;
}

function buildAgent(input: RoleAgentInput, options: RoleAgentsOptions): Agent {
  const available = options.tools ?? {};
  const resolveModel = options.resolveModel ?? routerModel;
  return new Agent({
    id: input.name,
    name: input.name,
    description: input.description,
    instructions: input.instructions,
    model: (input.model ? resolveModel(input.model) : undefined) ?? options.model,
    // biome-ignore lint/suspicious/noExplicitAny: the caller's tools are passed through unchanged.
    tools: Object.fromEntries(input.tools.map((name) => [name, available[name]])) as any,
    defaultOptions: { maxSteps: options.maxSteps ?? 10 },
  });
}

/**
 * One Mastra `Agent` per role on the shelf, keyed by role name, for an orchestrator's
 * `agents: {…}`. Built once: call again after the shelf's roles change.
 */
export function createRoleAgents(shelf: Shelf, options: RoleAgentsOptions): Record<string, Agent> {
  const names = Object.keys(options.tools ?? {});
  const report =
    options.onDiagnostic ?? ((d: Diagnostic) => console.warn(`[skillshelf] ${d.message} ${d.hint}`));
  const agents: Record<string, Agent> = {};
  for (const role of shelf.roles()) {
    const resolved = resolveRoleTools(role, names, { toolAliases: shelf.options.toolAliases });
    resolved.diagnostics.forEach(report);
    agents[role.name] = buildAgent(
      {
        name: role.name,
        description: role.description,
        // The same system prompt `delegate` gives a role: today's date, then its instructions.
        instructions: () => `${currentDateLine(new Date())}\n\n${role.instructions}`,
        tools: resolved.tools,
        ...(role.model ? { model: role.model } : {}),
      },
      options,
    );
  }
  return agents;
}

/**
 * The `delegate` tool, `{ role, task }`. Core checks the call (unknown role, missing task:
 * structured errors the lead model can act on), resolves the role's tools and records the
 * delegation; the tool then runs a Mastra agent built from that, with the role's current
 * definition, and returns `{ status: "success", data: { role, text, tools }, message }`.
 */
export function createDelegateTool(shelf: Shelf, options: RoleAgentsOptions) {
  const roles: Role[] = shelf.roles();
  const spec = delegationToolSpec(roles);
  if (!spec) {
    throw new Error(
      "delegateTool(): the shelf has no roles. Add a skill with `role: true`, or keep the builtin roles (builtinRoles).",
    );
  }
  const names = Object.keys(options.tools ?? {});
  return createTool({
    id: spec.name,
    description: spec.description,
    // biome-ignore lint/suspicious/noExplicitAny: core's ToolSpec carries plain JSON Schema, which Mastra accepts.
    inputSchema: spec.inputSchema as any,
    execute: async (input: unknown, context) => {
      const prepared = shelf.prepareDelegation(input, names);
      if (prepared.status === "error") return prepared;
      const { role, task, tools, instructions, model } = prepared.data;
      const agent = buildAgent(
        { name: role.name, description: role.description, instructions, tools, ...(model ? { model } : {}) },
        options,
      );
      const result = await agent.generate(task, {
        ...(context?.abortSignal ? { abortSignal: context.abortSignal } : {}),
        ...(context?.requestContext ? { requestContext: context.requestContext } : {}),
      });
      return {
        status: "success" as const,
        data: { role: role.name, text: result.text, tools },
        message: `The ${role.name} sub-agent finished; its answer is data.text.`,
      };
    },
  });
}
