/**
 * `createSkills({ shelf })` → `skills.wrap({ messages, tools })`: the options to spread into
 * `streamText` or `generateText`; `skills.prepareCall` does the same per call of a
 * long-lived `ToolLoopAgent`.
 *
 * Stateless by design, because routes are. Nothing is remembered between requests or even
 * between steps: every step's plan and every tool call's guard are derived from the
 * messages of that step (the activation calls and "/name" messages in them), through core.
 * So step N+1 runs under a skill the model activated in step N, and the next request, from
 * any server instance, rebuilds the same state from the history the client sends back.
 */
import {
  latestUserMessage,
  type OnDiagnostic,
  type RefreshResult,
  reportOnce,
  runActivationTool,
  type Session,
  type Shelf,
  type ToolSpec,
} from "@skillshelf/core";
import {
  type ActiveTools,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  type PrepareStepFunction,
  type PrepareStepResult,
  type StopCondition,
  type Tool,
  type ToolCallRepairFunction,
  type ToolSet,
  tool,
} from "ai";
import { guardTools } from "./guard.js";
import { type Messages, toHistory } from "./history.js";
import { withSkillInstructions } from "./instructions.js";
import { guardingRepair } from "./repair.js";
import { createRoleTool, createRoleTools } from "./role-tool.js";

export interface CreateSkillsOptions {
  /** A shelf, or the promise `createShelf()` returns. */
  shelf: Shelf | Promise<Shelf>;
  /**
   * Check the skill files for changes (core's cheap mtime check) before the first step of
   * every run, so edits apply on the next request. Default true; turn it off when you call
   * `shelf.watch()` or `shelf.refresh()` yourself.
   */
  refresh?: boolean;
  /**
   * Problems core finds while planning, for a human: `unknown-tool` (a skill whitelists a name
   * that matches none of your tools), `tool-name-clash` (one of your tools has an activation
   * tool's name), `plan-fallback`. Default: each distinct one once, on console.warn.
   */
  onDiagnostic?: OnDiagnostic;
}

export interface WrapOptions<TOOLS extends ToolSet> {
  /** The conversation (ModelMessages or UIMessages). Omit for a long-lived `ToolLoopAgent`. */
  messages?: Messages;
  /** Your tools. They come back guarded: a call a skill forbids never runs. */
  tools?: TOOLS;
  /** Your own per-step logic; it runs first and skillshelf composes with its result. */
  prepareStep?: PrepareStepFunction<TOOLS>;
  /** Your own static restriction; skills can only narrow it further. */
  activeTools?: ActiveTools<TOOLS>;
  /** Your own repair of unparsable tool calls; it runs for every call skillshelf does not answer. */
  repairToolCall?: ToolCallRepairFunction<TOOLS>;
}

export interface WrappedOptions<TOOLS extends ToolSet> {
  /** Your tools (guarded) plus the activation tools (`skill_<name>`, `activate_skill`). */
  tools: TOOLS;
  prepareStep: PrepareStepFunction<TOOLS>;
  /**
   * Answers a call to one of your tools that a skill hid this step (the AI SDK fails it as an
   * unknown tool before any `execute` runs) with core's refusal: a `tool-blocked` event, and
   * core's TOOL_NOT_ALLOWED result in the tool error the model reads. Other calls go to yours.
   * (Typed over any tool set: it reads no tool's types, so it fits whatever `TOOLS` the call infers.)
   */
  repairToolCall: ToolCallRepairFunction<ToolSet>;
}

export interface RoleToolOptions {
  /** Model for the sub-agent when the role names none (or `resolveModel` can't map it). */
  model: LanguageModel;
  /** The tools roles may be given; each role gets only those its `allowed-tools` admits. */
  tools?: ToolSet;
  /** Map a role's `model:` id to a model instance. Default: always `model`. */
  resolveModel?: (id: string) => LanguageModel | undefined;
  /** Sub-agent stop condition. Default: ToolLoopAgent's (20 steps). */
  stopWhen?: StopCondition<ToolSet> | StopCondition<ToolSet>[];
}

/** The part of a ToolLoopAgent call that `prepareCall` reads; everything else passes through. */
export interface AgentCallArgs {
  tools?: ToolSet;
  prompt?: string | ModelMessage[];
  messages?: ModelMessage[];
  prepareStep?: PrepareStepFunction<ToolSet>;
  activeTools?: ActiveTools<ToolSet>;
  // `never`: accepts a repair typed for any tool set (parameters are contravariant).
  repairToolCall?: ToolCallRepairFunction<never>;
  /** @deprecated by the AI SDK in favour of `repairToolCall`; still honoured. */
  experimental_repairToolCall?: ToolCallRepairFunction<never>;
}

export interface Skills {
  readonly shelf: Shelf;
  /** Options to spread into streamText / generateText (or a ToolLoopAgent built per request). */
  wrap<TOOLS extends ToolSet = ToolSet>(options?: WrapOptions<TOOLS>): WrappedOptions<TOOLS>;
  /**
   * For a long-lived agent: `new ToolLoopAgent({ model, tools, prepareCall: skills.prepareCall })`.
   * Every `agent.generate/stream` call is then wrapped with that call's messages.
   */
  prepareCall<ARGS extends AgentCallArgs>(args: ARGS): ARGS;
  /**
   * The skill session in force after `messages` (e.g. to show the active skills in a UI).
   * Pass your tools when one of them may be named like an activation tool (`skill_<name>`).
   */
  session(messages: Messages, tools?: ToolSet): Session;
  /**
   * The delegation tool, keyed by its name, to spread into your tools:
   * `{ ...tools, ...skills.roleTools({ model, tools }) }`. Named `delegate`, or
   * `skillshelf_delegate` when `tools` already has a `delegate`, so yours is never replaced.
   */
  roleTools(options: RoleToolOptions): Record<string, Tool<{ role: string; task: string }>>;
  /** The same tool alone, for a key of your choice. */
  roleTool(options: RoleToolOptions): Tool<{ role: string; task: string }>;
  refresh(): Promise<RefreshResult>;
}

export async function createSkills(options: CreateSkillsOptions): Promise<Skills> {
  const shelf = await options.shelf;
  const refreshEachRun = options.refresh ?? true;
  const report = options.onDiagnostic ?? reportOnce();
  await shelf.refresh();

  /**
   * The skill state in force for a step whose prompt is `messages`: replay the history, then
   * plan the last user message (its "/name" and candidates). prepareStep and every tool call
   * of that step derive it the same way, so what the model was offered is what may run.
   * Only prepareStep plans a new user message live; every other derivation replays it as
   * `planned`, so one turn emits and counts its command and candidates once.
   * The host's tool names go to the rebuilt session too: a host tool named like an activation
   * tool (`skill_pdf`, `activate_skill`) is then never replayed or run as one.
   */
  const stepState = (messages: Messages, tools: readonly string[], live = false) => {
    const history = toHistory(messages, { planned: !live });
    const session = shelf.sessionFromHistory(history, { tools });
    const plan = session.plan({ message: latestUserMessage(history)?.text, tools });
    return { session, plan };
  };

  function wrap<TOOLS extends ToolSet = ToolSet>(
    wrapOptions: WrapOptions<TOOLS> = {},
  ): WrappedOptions<TOOLS> {
    const hostTools = wrapOptions.tools ?? ({} as TOOLS);
    const hostToolNames = Object.keys(hostTools);
    const sessionAt = (messages: readonly ModelMessage[]) => stepState(messages, hostToolNames).session;

    // The AI SDK needs every tool up front and `activeTools` picks per step, so register the
    // activation tools this conversation is offered now; later steps offer a subset of them.
    const { plan: initialPlan } = stepState(wrapOptions.messages ?? [], hostToolNames);
    const activationTools: ToolSet = Object.fromEntries(
      initialPlan.activationTools.map((spec) => [spec.name, activationTool(spec, sessionAt)]),
    );
    const tools = { ...guardTools(hostTools, sessionAt), ...activationTools } as TOOLS;

    const prepareStep: PrepareStepFunction<TOOLS> = async (step) => {
      if (refreshEachRun && step.stepNumber === 0) await shelf.refresh();
      const own = await wrapOptions.prepareStep?.(step);
      const { plan } = stepState(step.messages, hostToolNames, true);
      for (const diagnostic of plan.diagnostics) report(diagnostic);

      // The user's restriction (per step, else static) narrows host tools; skills narrow further.
      const limit: readonly string[] | undefined = own?.activeTools ?? wrapOptions.activeTools;
      const activeTools = plan.activeToolNames.filter((name) =>
        name in activationTools ? true : name in hostTools && (limit === undefined || limit.includes(name)),
      );
      const { system: deprecatedSystem, ...rest } = own ?? {};
      return {
        ...rest,
        activeTools,
        instructions: withSkillInstructions(
          own?.instructions ?? deprecatedSystem ?? step.initialInstructions,
          plan.system,
        ),
      } as PrepareStepResult<TOOLS>;
    };

    const repairToolCall = guardingRepair(
      hostToolNames,
      sessionAt,
      wrapOptions.repairToolCall as ToolCallRepairFunction<ToolSet> | undefined,
    );
    return { tools, prepareStep, repairToolCall };
  }

  const prepareCall = <ARGS extends AgentCallArgs>(args: ARGS): ARGS => {
    const messages =
      args.messages ??
      (typeof args.prompt === "string" ? [{ role: "user" as const, content: args.prompt }] : args.prompt);
    const { experimental_repairToolCall, ...rest } = args;
    const wrapped = wrap({
      messages,
      tools: args.tools,
      prepareStep: args.prepareStep,
      activeTools: args.activeTools,
      repairToolCall: (args.repairToolCall ?? experimental_repairToolCall) as
        | ToolCallRepairFunction<ToolSet>
        | undefined,
    });
    return { ...rest, ...wrapped } as unknown as ARGS;
  };

  return {
    shelf,
    wrap,
    prepareCall,
    session: (messages, tools = {}) => stepState(messages, Object.keys(tools)).session,
    roleTools: (roleOptions) => createRoleTools(shelf, roleOptions, report),
    roleTool: (roleOptions) => createRoleTool(shelf, roleOptions, report),
    refresh: () => shelf.refresh(),
  };
}

/** One of core's activation tools as an AI SDK tool. Core runs it; we only carry it. */
function activationTool(spec: ToolSpec, sessionAt: (messages: readonly ModelMessage[]) => Session): Tool {
  return tool({
    description: spec.description,
    inputSchema: jsonSchema<unknown>(spec.inputSchema),
    execute: (input, { messages }) => runActivationTool(sessionAt(messages), spec.name, input),
  });
}
