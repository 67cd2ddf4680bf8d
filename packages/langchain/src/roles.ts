/**
 * Role sub-agents. A role is a skill with `role: true`: its body is the sub-agent's
 * instructions, its `allowed-tools` the only tools it gets, its `model` an optional model id.
 * Builtin and user-written roles both come from `shelf.roles()`, so they behave alike; core
 * checks delegation calls and resolves each role's tools.
 */
import {
  hostDelegationSpec,
  type Role,
  reportOnce,
  resolveRoleTools,
  runDelegation,
  type Shelf,
} from "@skillshelf/core";
import {
  type AgentMiddleware,
  AIMessage,
  type CreateAgentParams,
  createAgent,
  HumanMessage,
  tool,
} from "langchain";
import type { OnDiagnostic } from "./diagnostics.js";
import { type AnyTool, toolName } from "./tool-name.js";

type Model = CreateAgentParams["model"];

const defaultReport = reportOnce();

export interface RoleAgentOptions {
  shelf: Shelf;
  /** The tools roles may be given; each role gets only those its `allowed-tools` admits. */
  tools: readonly AnyTool[];
  /** The model for roles that name none. */
  model: Model;
  /**
   * Turns a role's `model:` id into a model. Default: the id as is, which LangChain reads as
   * a "provider:model" string (e.g. "openai:gpt-4o-mini").
   */
  resolveModel?: (id: string, role: Role) => Model;
  /** Extra middleware for every role sub-agent (e.g. the host's logging). */
  middleware?: readonly AgentMiddleware[];
  /** E.g. a role whitelists a tool that matches none of `tools`. Default: each once, on console.warn. */
  onDiagnostic?: OnDiagnostic;
}

/** A `createAgent` for one role: its instructions as the system prompt, only its tools. */
export function createRoleAgent(role: string | Role, options: RoleAgentOptions) {
  const found = typeof role === "string" ? options.shelf.role(role) : role;
  if (!found) {
    const names = options.shelf.roles().map((r) => r.name);
    throw new Error(
      `skillshelf: there is no role "${String(role)}"; roles: ${names.join(", ") || "(none)"}.`,
    );
  }
  const { tools, diagnostics } = resolveRoleTools(found, options.tools.map(toolName), {
    toolAliases: options.shelf.options.toolAliases,
  });
  for (const diagnostic of diagnostics) (options.onDiagnostic ?? defaultReport)(diagnostic);
  return roleAgent(found, found.instructions, tools, options);
}

function roleAgent(
  role: Role,
  instructions: string,
  toolNames: readonly string[],
  options: RoleAgentOptions,
) {
  const allowed = new Set(toolNames);
  return createAgent({
    model: role.model ? (options.resolveModel ?? ((id) => id))(role.model, role) : options.model,
    name: role.name,
    description: role.description,
    systemPrompt: instructions,
    tools: options.tools.filter((t) => allowed.has(toolName(t))),
    middleware: [...(options.middleware ?? [])],
  });
}

export interface DelegateToolOptions extends RoleAgentOptions {
  /**
   * Tool name (default "delegate"). When one of `tools` already has it, the tool takes core's
   * next name (`skillshelf_delegate`, …) instead of replacing yours: read it from `.name`.
   */
  name?: string;
}

/**
 * The tool an orchestrating agent calls with `{ role, task }`: it runs that role's sub-agent
 * on the task alone (not the conversation) and returns its answer as a structured result.
 */
export function delegateTool(options: DelegateToolOptions) {
  const { shelf } = options;
  const report = options.onDiagnostic ?? defaultReport;
  const spec = hostDelegationSpec(shelf.roles(), options.tools.map(toolName), { name: options.name });
  // The tools a sub-agent may get: never this tool (no recursion).
  const offered = options.tools.map(toolName).filter((name) => name !== spec.name);
  return tool(
    async (input: unknown, runtime): Promise<string> => {
      await shelf.refresh();
      const result = await runDelegation(shelf, input, {
        tools: offered,
        onDiagnostic: report,
        run: async ({ role, task, tools, instructions }) => {
          const agent = roleAgent(role, instructions, tools, options);
          const state = await agent.invoke(
            { messages: [new HumanMessage(task)] },
            { signal: runtime?.signal },
          );
          return state.messages.findLast((m) => AIMessage.isInstance(m))?.text ?? "";
        },
      });
      return JSON.stringify(result);
    },
    { name: spec.name, description: spec.description, schema: withoutRoleEnum(spec.inputSchema) },
  );
}

/**
 * LangChain validates a tool's input against its schema before the tool runs. The role enum
 * is fixed when the tool is created, but roles hot-reload: a role file added later must not
 * be rejected by a stale enum. Core checks the name against the current roles at call time.
 */
function withoutRoleEnum(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties?.role) return schema;
  const { enum: _fixed, ...role } = properties.role;
  return { ...schema, properties: { ...properties, role } };
}
