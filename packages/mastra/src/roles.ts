/**
 * Role skills as Mastra sub-agents. A role skill (`role: true`) is a sub-agent written in
 * Markdown: body = instructions, `allowed-tools` = its only tools, optional `model`. Mastra's
 * own way to hand sub-agents to an orchestrator is `agents: {…}` (each becomes an
 * `agent-<name>` tool); `delegate` is the `{ role, task }` tool every skillshelf adapter
 * offers. Both routes run a sub-agent from core's `Delegation` (instructions with the date
 * line, tools, model, step limit), and both bound it by the conversation that started it.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { ProcessInputStepArgs, ProcessInputStepResult, Processor } from "@mastra/core/processors";
import { createTool } from "@mastra/core/tools";
import { type Delegation, type Diagnostic, type Role, roleAgentSpec, type Shelf } from "@skillshelf/core";
import {
  answeringUnknownTools,
  currentSession,
  delegationScope,
  hostDelegationSpec,
  reportOnce,
  runDelegation,
  runInSession,
  subAgentUnknownTool,
} from "@skillshelf/core/adapter";
import { latestUserText } from "./history.js";

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
  /** Steps a role agent may take per task. Default: core's, the same in every adapter. */
  maxSteps?: number;
  /** Whitelist entries that admit none of `tools`. Default: console.warn, once each. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** A processor Mastra accepts in `inputProcessors` (its type wants the method present). */
type InputProcessor = Processor<string> & Required<Pick<Processor<string>, "processInputStep">>;

const TAG = "skillshelf-role";
const RUN = Symbol("skillshelf.role-run");
const routerModel = (id: string): MastraModelConfig | undefined => (id.includes("/") ? id : undefined);

type StepTool = { execute?: (input: unknown, context: unknown) => unknown };

function modelFor(id: string | undefined, options: RoleAgentsOptions): MastraModelConfig {
  return (id ? (options.resolveModel ?? routerModel)(id) : undefined) ?? options.model;
}

/**
 * Each of a sub-agent's tool calls is judged by its delegation's guard (the session of the
 * conversation that delegated, or the shelf's write protection when none did): a tool the
 * parent's active skills rule out, or a write into a skill folder, is refused with core's
 * structured result. Each tool runs under the delegation's scope, so code it calls (a host
 * delegation tool, anything asking `currentSession()`) gets the sub-agent's bound, not the
 * wider one of the conversation above it: a read-only role cannot delegate to one that writes.
 */
function boundedTools(tools: Record<string, unknown>, delegation: Delegation): Record<string, unknown> {
  const bounded: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as StepTool | undefined)?.execute;
    if (typeof execute !== "function") continue;
    bounded[name] = {
      ...(tool as object),
      execute: async (input: unknown, context: unknown) => {
        const verdict = delegation.guard({ name, input });
        if (!verdict.allowed) return verdict.result;
        return runInSession(delegationScope(currentSession(), delegation), () =>
          execute.call(tool, input, context),
        );
      },
    };
  }
  return bounded;
}

interface RoleRun {
  delegation: Delegation;
  tools: Record<string, unknown>;
}

/**
 * The role agent's input processor. A run starts from a `Delegation`: the one `delegate`
 * prepared, or (Mastra's `agent-<role>` tool, which starts the agent itself) one core
 * prepares here from the task, which also records the `delegated` event. On every step the
 * agent gets the delegation's instructions and only the tools it was granted that the
 * parent conversation allows now; past core's step limit the run stops, whatever
 * `maxSteps` the orchestrating model asked Mastra for.
 */
function roleProcessor(
  shelf: Shelf,
  role: string,
  hostTools: readonly string[],
  options: RoleAgentsOptions,
  report: (d: Diagnostic) => void,
  prepared?: Delegation,
): InputProcessor {
  const start = (args: ProcessInputStepArgs): RoleRun => {
    let delegation = prepared;
    if (!delegation) {
      const task = latestUserText(args.messages as MastraDBMessage[]);
      const result = shelf.prepareDelegation({ role, task }, hostTools);
      if (result.status === "error") return args.abort(result.message);
      delegation = result.data;
      delegation.diagnostics.forEach(report);
    }
    return { delegation, tools: { ...(args.tools ?? {}) } };
  };
  return {
    id: TAG,
    processInputStep(args): ProcessInputStepResult {
      const state = args.state as { [RUN]?: RoleRun };
      const run = state[RUN] ?? start(args);
      state[RUN] = run;
      const { delegation } = run;
      const limit = options.maxSteps ?? delegation.maxSteps;
      if (args.stepNumber >= limit) {
        args.abort(`The ${delegation.role.name} sub-agent stopped at its limit of ${limit} steps.`);
      }
      args.messageList.clearSystemMessages(TAG);
      args.messageList.addSystem(delegation.instructions, TAG);
      const granted = delegation.tools.filter((name) => name in run.tools);
      const allowed = currentSession()?.allowedTools(granted) ?? granted;
      const tools = boundedTools(
        Object.fromEntries(allowed.map((name) => [name, run.tools[name]])),
        delegation,
      );
      return {
        tools,
        activeTools: Object.keys(tools),
        // A call of a tool it was not given reads the delegation's refusal, as in every framework.
        model: answeringUnknownTools(args.model, subAgentUnknownTool(delegation)),
      };
    },
  };
}

function roleAgent(
  input: { role: Role; tools: readonly string[]; model?: string; maxSteps: number },
  processor: InputProcessor,
  options: RoleAgentsOptions,
): Agent {
  const available = options.tools ?? {};
  return new Agent({
    id: input.role.name,
    name: input.role.name,
    description: input.role.description,
    // The processor gives the delegation's instructions (today's date, then the role's).
    instructions: "",
    model: modelFor(input.model, options),
    // biome-ignore lint/suspicious/noExplicitAny: the caller's tools are passed through unchanged.
    tools: Object.fromEntries(input.tools.map((name) => [name, available[name]])) as any,
    defaultOptions: { maxSteps: options.maxSteps ?? input.maxSteps },
    inputProcessors: [processor],
  });
}

/**
 * One Mastra `Agent` per role on the shelf, keyed by role name, for an orchestrator's
 * `agents: {…}`. Built once: call again after the shelf's roles change. Each run goes
 * through `shelf.prepareDelegation` (a `delegated` event, the parent's bound), also when you
 * call a role agent directly.
 */
export function createRoleAgents(shelf: Shelf, options: RoleAgentsOptions): Record<string, Agent> {
  const names = Object.keys(options.tools ?? {});
  const report = reportOnce(options.onDiagnostic);
  const agents: Record<string, Agent> = {};
  for (const role of shelf.roles()) {
    // A user-only role (`disable-model-invocation`) is no agent for an orchestrating model
    // to pick: its run would be refused (MODEL_INVOCATION_DISABLED).
    if (role.userOnly) continue;
    // What the role gets (tools, model, step limit), as core builds every role agent; the
    // agent is built ahead, and each run prepares its own delegation (and records it).
    const spec = roleAgentSpec(role, names, {
      toolAliases: shelf.options.toolAliases,
      ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    });
    spec.diagnostics.forEach(report);
    agents[role.name] = roleAgent(
      { role, tools: spec.tools, model: spec.model, maxSteps: spec.maxSteps },
      roleProcessor(shelf, role.name, names, options, report),
      options,
    );
  }
  return agents;
}

/**
 * The delegation tool, `{ role, task }`. Core names it (`delegate`, or `skillshelf_delegate`
 * when `tools` has a `delegate`: register it under its `id`), checks each call (unknown role,
 * missing task: structured errors the lead model can act on), resolves the role's tools
 * (bounded by the conversation's active skills) and records the delegation; the tool runs a
 * Mastra agent built from that and returns `{ status: "success", data: { role, text, tools }, message }`.
 */
export function createDelegateTool(shelf: Shelf, options: RoleAgentsOptions) {
  const names = Object.keys(options.tools ?? {});
  const spec = hostDelegationSpec(shelf.roles(), names);
  const report = reportOnce(options.onDiagnostic);
  return createTool({
    id: spec.name,
    description: spec.description,
    // biome-ignore lint/suspicious/noExplicitAny: core's ToolSpec carries plain JSON Schema, which Mastra accepts.
    inputSchema: spec.inputSchema as any,
    execute: (input: unknown, context) =>
      runDelegation(shelf, input, {
        tools: names,
        onDiagnostic: report,
        run: async (delegation) => {
          const agent = roleAgent(
            delegation,
            roleProcessor(shelf, delegation.role.name, names, options, report, delegation),
            options,
          );
          const result = await agent.generate(delegation.task, {
            maxSteps: options.maxSteps ?? delegation.maxSteps,
            ...(context?.abortSignal ? { abortSignal: context.abortSignal } : {}),
            ...(context?.requestContext ? { requestContext: context.requestContext } : {}),
          });
          return result.text;
        },
      }),
  });
}

/** The delegation tool keyed by its name, to spread into an agent's `tools`. */
export function createDelegateTools(shelf: Shelf, options: RoleAgentsOptions) {
  const delegate = createDelegateTool(shelf, options);
  return { [delegate.id]: delegate } as Record<string, typeof delegate>;
}
