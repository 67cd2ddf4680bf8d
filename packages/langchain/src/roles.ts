/**
 * Role sub-agents. A role is a skill with `role: true`: its body is the sub-agent's
 * instructions, its `allowed-tools` the only tools it gets, its `model` an optional model id.
 * Builtin and user-written roles both come from `shelf.roles()`, so they behave alike; core
 * checks delegation calls and resolves each role's tools.
 */
import { delegationToolSpec, type Role, resolveRoleTools, type Shelf } from "@skillshelf/core";
import {
  type AgentMiddleware,
  AIMessage,
  type CreateAgentParams,
  createAgent,
  HumanMessage,
  tool,
} from "langchain";
import { type OnDiagnostic, warnOnce } from "./diagnostics.js";
import { type AnyTool, toolName } from "./tool-name.js";

type Model = CreateAgentParams["model"];

const defaultReport = warnOnce();

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
  /** Tool name (default "delegate"). */
  name?: string;
}

/**
 * The tool an orchestrating agent calls with `{ role, task }`: it runs that role's sub-agent
 * on the task alone (not the conversation) and returns its answer as a structured result.
 */
export function delegateTool(options: DelegateToolOptions) {
  const { shelf } = options;
  const report = options.onDiagnostic ?? defaultReport;
  const spec = delegationToolSpec(shelf.roles(), { name: options.name });
  if (!spec) {
    throw new Error(
      "skillshelf: delegateTool() needs at least one role. Add a skill with `role: true`, or keep the builtin roles.",
    );
  }
  return tool(
    async (input: unknown, runtime): Promise<string> => {
      await shelf.refresh();
      // Core checks the call, resolves the role's tools and logs a `delegated` event.
      const offered = options.tools.map(toolName).filter((name) => name !== spec.name); // no recursion
      const prepared = shelf.prepareDelegation(input, offered);
      if (prepared.status === "error") return JSON.stringify(prepared);
      const { role, task, tools, instructions, diagnostics } = prepared.data;
      for (const diagnostic of diagnostics) report(diagnostic);
      const agent = roleAgent(role, instructions, tools, options);
      const state = await agent.invoke({ messages: [new HumanMessage(task)] }, { signal: runtime?.signal });
      const text = state.messages.findLast((m) => AIMessage.isInstance(m))?.text ?? "";
      return JSON.stringify({
        status: "success",
        data: { role: role.name, text, tools },
        message: `The ${role.name} sub-agent finished; its answer is data.text.`,
      });
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
