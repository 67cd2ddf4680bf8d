/**
 * Role skills as Mastra sub-agents. A role skill (`role: true`) is a sub-agent written in
 * Markdown: body = instructions, `allowed-tools` = its only tools, optional `model`. Mastra's
 * own way to hand sub-agents to an orchestrator is `agents: {…}` (each becomes an
 * `agent-<name>` tool); `delegate` is the `{ role, task }` tool every skillshelf adapter
 * offers. Core resolves each role's tools and checks delegation calls; this file only builds
 * Mastra agents from what core returns.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { Processor } from "@mastra/core/processors";
import { createTool } from "@mastra/core/tools";
import {
  currentDateLine,
  type Diagnostic,
  hostDelegationSpec,
  type Role,
  reportOnce,
  resolveRoleTools,
  runDelegation,
  type Shelf,
} from "@skillshelf/core";
import { readConversation } from "./history.js";

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
  /** Whitelist entries that admit none of `tools`. Default: console.warn, once each. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** A processor Mastra accepts in `inputProcessors` (its type wants the method present). */
type InputProcessor = Processor<string> & Required<Pick<Processor<string>, "processInput">>;

const routerModel = (id: string): MastraModelConfig | undefined => (id.includes("/") ? id : undefined);

interface RoleAgentInput {
  name: string;
  description: string;
  /** Fixed text, or (for long-lived agents) a function so the date line stays current. */
  instructions: string | (() => string);
  tools: readonly string[];
  model?: string;
  inputProcessors?: InputProcessor[];
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
    ...(input.inputProcessors && { inputProcessors: input.inputProcessors }),
  });
}

/**
 * Mastra runs an `agents: {…}` sub-agent itself (its `agent-<role>` tool), without
 * `prepareDelegation`; this processor records each run as core's `delegated` event, so usage
 * and stats count it like a call of the delegation tool. The messages go through unchanged.
 */
function recordsDelegations(shelf: Shelf, role: string, tools: readonly string[]): InputProcessor {
  return {
    id: "skillshelf-delegation",
    processInput: ({ messages }) => {
      const task = readConversation(messages as MastraDBMessage[]).message ?? "";
      shelf.recordDelegation({ role, task, tools });
      return messages;
    },
  };
}

/**
 * One Mastra `Agent` per role on the shelf, keyed by role name, for an orchestrator's
 * `agents: {…}`. Built once: call again after the shelf's roles change. Each run is recorded
 * as a `delegated` event (also when you call a role agent directly).
 */
export function createRoleAgents(shelf: Shelf, options: RoleAgentsOptions): Record<string, Agent> {
  const names = Object.keys(options.tools ?? {});
  const report = options.onDiagnostic ?? reportOnce();
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
        inputProcessors: [recordsDelegations(shelf, role.name, resolved.tools)],
      },
      options,
    );
  }
  return agents;
}

/**
 * The delegation tool, `{ role, task }`. Core names it (`delegate`, or `skillshelf_delegate`
 * when `tools` has a `delegate`: register it under its `id`), checks each call (unknown role,
 * missing task: structured errors the lead model can act on), resolves the role's tools and
 * records the delegation; the tool runs a Mastra agent built from that, with the role's
 * current definition, and returns `{ status: "success", data: { role, text, tools }, message }`.
 */
export function createDelegateTool(shelf: Shelf, options: RoleAgentsOptions) {
  const roles: Role[] = shelf.roles();
  const names = Object.keys(options.tools ?? {});
  const spec = hostDelegationSpec(roles, names);
  const report = options.onDiagnostic ?? reportOnce();
  return createTool({
    id: spec.name,
    description: spec.description,
    // biome-ignore lint/suspicious/noExplicitAny: core's ToolSpec carries plain JSON Schema, which Mastra accepts.
    inputSchema: spec.inputSchema as any,
    execute: (input: unknown, context) =>
      runDelegation(shelf, input, {
        tools: names,
        onDiagnostic: report,
        run: async ({ role, task, tools, instructions, model }) => {
          const agent = buildAgent(
            {
              name: role.name,
              description: role.description,
              instructions,
              tools,
              ...(model ? { model } : {}),
            },
            options,
          );
          const result = await agent.generate(task, {
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
