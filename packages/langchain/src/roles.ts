/**
 * Role sub-agents. A role is a skill with `role: true`: its body is the sub-agent's
 * instructions, its `allowed-tools` the only tools it gets, its `model` an optional model id.
 * Builtin and user-written roles both come from `shelf.roles()`, so they behave alike; core
 * checks delegation calls and resolves each role's tools.
 */
import { type Delegation, type Role, roleAgentSpec, type Session, type Shelf } from "@skillshelf/core";
import {
  currentSession,
  delegationScope,
  hostDelegationSpec,
  type RoleAgentGuard,
  reportOnce,
  roleAgentGuard,
  runDelegation,
  runInSession,
} from "@skillshelf/core/adapter";
import {
  type AgentMiddleware,
  AIMessage,
  type CreateAgentParams,
  createAgent,
  createMiddleware,
  dynamicSystemPromptMiddleware,
  HumanMessage,
  modelCallLimitMiddleware,
  tool,
} from "langchain";
import type { OnDiagnostic } from "./diagnostics.js";
import { resultMessage } from "./skill-tools.js";
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
   * a "provider:model" string (e.g. "openai:gpt-4o-mini"). `undefined`: the role runs on `model`.
   */
  resolveModel?: (id: string, role: Role) => Model | undefined;
  /** Extra middleware for every role sub-agent (e.g. the host's logging). */
  middleware?: readonly AgentMiddleware[];
  /** E.g. a role whitelists a tool that matches none of `tools`. Default: each once, on console.warn. */
  onDiagnostic?: OnDiagnostic;
  /** Model calls a role agent may make per task. Default: core's, the same in every adapter. */
  maxSteps?: number;
}

/**
 * A `createAgent` for one role, built as core builds every role agent: today's date and the
 * role's instructions as the system prompt (read per model call), only its tools, core's step limit.
 */
export function createRoleAgent(role: string | Role, options: RoleAgentOptions) {
  const found = typeof role === "string" ? options.shelf.role(role) : role;
  if (!found) {
    const names = options.shelf.roles().map((r) => r.name);
    throw new Error(
      `skillshelf: there is no role "${String(role)}"; roles: ${names.join(", ") || "(none)"}.`,
    );
  }
  const hostTools = options.tools.map(toolName);
  const specOptions = {
    toolAliases: options.shelf.options.toolAliases,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
  };
  const spec = roleAgentSpec(found, hostTools, specOptions);
  for (const diagnostic of spec.diagnostics) (options.onDiagnostic ?? defaultReport)(diagnostic);
  // The role as its file says now, within what the agent was built with: narrowed on disk,
  // the agent is narrowed; gone, it has no tools. A role the shelf never had stays as given.
  const built = new Set(spec.tools);
  const onShelf = options.shelf.role(found.name) !== undefined;
  const givenNow = () => {
    const now = options.shelf.role(found.name);
    if (!now) return [];
    return roleAgentSpec(now, hostTools, specOptions).tools.filter((t) => built.has(t));
  };
  const given = onShelf ? givenNow : () => spec.tools;
  // Run by the host, not delegated: its calls are judged as a delegated sub-agent's are, by
  // one shelf session opened on the first call that has no session of its own.
  let shelfJudge: Session | undefined;
  const openJudge = () => (shelfJudge ??= options.shelf.session({ tools: hostTools }));
  const guardFor = (tools: readonly string[]) => roleAgentGuard(found, tools, openJudge);
  return roleAgent(
    found,
    spec.instructions,
    spec.tools,
    options,
    spec.maxSteps,
    hostRunMiddleware(given, guardFor),
  );
}

function roleAgent(
  role: Role,
  instructions: string | (() => string),
  toolNames: readonly string[],
  options: RoleAgentOptions,
  maxSteps: number,
  guard: AgentMiddleware,
) {
  const allowed = new Set(toolNames);
  const model =
    (role.model ? (options.resolveModel ?? ((id) => id))(role.model, role) : undefined) ?? options.model;
  return createAgent({
    model,
    name: role.name,
    description: role.description,
    ...(typeof instructions === "string" ? { systemPrompt: instructions } : {}),
    tools: options.tools.filter((t) => allowed.has(toolName(t))),
    middleware: [
      // Every call is judged as the lead's are (a tool not given, a write into a skill folder).
      guard,
      // Built ahead, the agent runs on later days: the date line is read per model call.
      ...(typeof instructions === "function" ? [dynamicSystemPromptMiddleware(() => instructions())] : []),
      // Core's step limit, counted as model calls (LangGraph's recursionLimit counts graph nodes).
      modelCallLimitMiddleware({ runLimit: maxSteps, exitBehavior: "end" }),
      ...(options.middleware ?? []),
    ],
  });
}

/**
 * Run by the host, each call is judged under the session current when it comes in, and its
 * tool runs under the agent's bound, so a delegation that tool starts gets no more than the
 * agent has (a delegated agent already runs under its delegation's).
 */
function hostRunMiddleware(
  tools: () => readonly string[],
  guardFor: (tools: readonly string[]) => RoleAgentGuard,
) {
  return createMiddleware({
    name: "skillshelf-role-agent",
    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const parent = currentSession();
      // The role is read once per call: the call is judged and its tool bounded by one version.
      const given = [...tools()];
      const guard = guardFor(given)(parent);
      const verdict = guard({ name: toolCall.name, input: toolCall.args });
      if (!verdict.allowed) return resultMessage(verdict.result, toolCall.id ?? "", toolCall.name);
      return runInSession(delegationScope(parent, { tools: given, guard }), () => handler(request));
    },
  });
}

function guardMiddleware(judge: Pick<Delegation, "guard">) {
  return createMiddleware({
    name: "skillshelf-delegation",
    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const verdict = judge.guard({ name: toolCall.name, input: toolCall.args });
      if (!verdict.allowed) return resultMessage(verdict.result, toolCall.id ?? "", toolCall.name);
      return handler(request);
    },
  });
}

/** The sub-agent core prepared, run on its task alone; resolves with its final text. */
async function runRoleAgent(delegation: Delegation, options: RoleAgentOptions, signal?: AbortSignal) {
  const agent = roleAgent(
    delegation.role,
    delegation.instructions,
    delegation.tools,
    options,
    delegation.maxSteps,
    guardMiddleware(delegation),
  );
  const state = await agent.invoke({ messages: [new HumanMessage(delegation.task)] }, { signal });
  return state.messages.findLast((m) => AIMessage.isInstance(m))?.text ?? "";
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
      // Run as a host tool under skillsMiddleware, so core bounds the sub-agent by the parent's active skills.
      const result = await runDelegation(shelf, input, {
        tools: offered,
        onDiagnostic: report,
        run: (delegation) => runRoleAgent(delegation, options, runtime?.signal),
      });
      return JSON.stringify(result);
    },
    { name: spec.name, description: spec.description, schema: spec.inputSchema },
  );
}
