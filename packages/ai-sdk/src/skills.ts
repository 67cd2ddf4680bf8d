/**
 * `createSkills({ shelf })` → `skills.wrap({ messages, tools })`: the options to spread into
 * `streamText` or `generateText`; `skills.prepareCall` does the same per call of a
 * long-lived `ToolLoopAgent`.
 *
 * Stateless, because routes are: nothing is kept between requests. Each step (one model
 * call) opens ONE core session from that step's messages, with the host's tool names, and
 * everything of that step uses it: the plan (instructions, offered tools), the model's
 * response (`respond`: activations and ends in it apply before any of its calls runs) and
 * every tool call of it. The next request, on any server instance, rebuilds the same state
 * from the history the client sends back.
 */
import {
  type AfterRunResult,
  type EventIds,
  type Fork,
  type ImproveOptions,
  improveAfterRun,
  type RefreshResult,
  type Session,
  type Shelf,
  type ToolSpec,
} from "@skillshelf/core";
import {
  type OnDiagnostic,
  reportedFiles,
  reportOnce,
  respondingModel,
  respondToPendingCalls,
  skillModels,
} from "@skillshelf/core/adapter";
import type {
  ActiveTools,
  GenerateTextOnEndCallback,
  LanguageModel,
  ModelMessage,
  PrepareStepFunction,
  PrepareStepResult,
  StopCondition,
  Tool,
  ToolCallRepairFunction,
  ToolSet,
} from "ai";
import { withSkillToolsOnLookUp } from "./approved-skill-calls.js";
import { runForkAgent } from "./fork-agent.js";
import { guardTools } from "./guard.js";
import { type Messages, toHistory } from "./history.js";
import { withSkillInstructions } from "./instructions.js";
import { createRoleTool, createRoleTools } from "./role-tool.js";
import { skillTool } from "./skill-tools.js";
import { stepModel } from "./step-model.js";
import { stepSessions } from "./step-sessions.js";
import { toTranscript } from "./transcript.js";

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
   * that matches none of your tools), `tool-name-clash` (one of your tools has a skill tool's
   * name), `plan-fallback`. Default: each distinct one once, on console.warn.
   */
  onDiagnostic?: OnDiagnostic;
  /**
   * Opt in to the improvement loop, the same option in every skillshelf adapter: after a run
   * that used skills, core analyses how each was used and keeps its proposals for the user to
   * accept or reject (nothing is written without them). `true` uses the shelf's `generate`.
   * Runs from the `onEnd` that `wrap()` returns; with a `ToolLoopAgent`, call `skills.afterRun`.
   */
  improve?: boolean | ImproveOptions;
  /**
   * Map a skill's `model` id to a model: while a skill that names one is active, its steps
   * run on what this returns (through prepareStep's `model`). Undefined, or no
   * `resolveModel`, keeps the step's model, and an `onDiagnostic` says so once.
   */
  resolveModel?: (id: string) => LanguageModel | undefined;
  /**
   * The files a conversation touches, as your app knows them (opened, edited; relative to the
   * project), read from the step's messages before each step: a skill with `paths` is offered
   * when one of them, or a path the message mentions, matches its globs. `wrap({ files })`
   * overrides it for one request.
   */
  files?: (messages: readonly ModelMessage[]) => readonly string[] | undefined;
}

export interface WrapOptions<TOOLS extends ToolSet> {
  /**
   * @deprecated Not needed: every step is planned from the messages the SDK gives it.
   * Accepted (and ignored) so existing calls keep compiling.
   */
  messages?: Messages;
  /** Your tools. They come back guarded: a call a skill forbids never runs. */
  tools?: TOOLS;
  /** Your own per-step logic; it runs first and skillshelf composes with its result. */
  prepareStep?: PrepareStepFunction<TOOLS>;
  /** Your own static restriction; skills can only narrow it further. */
  activeTools?: ActiveTools<TOOLS>;
  /** Your own repair of unparsable tool calls, passed through untouched. */
  repairToolCall?: ToolCallRepairFunction<TOOLS>;
  /** Your own end-of-run callback; the returned `onEnd` calls it after skillshelf's. */
  onEnd?: GenerateTextOnEndCallback<TOOLS>;
  /** This request's files (as `createSkills({ files })`, which it overrides). */
  files?: (messages: readonly ModelMessage[]) => readonly string[] | undefined;
  /** Your chat's thread and this request's run id, stamped on every skill event of the request. */
  ids?: EventIds;
}

export interface WrappedOptions<TOOLS extends ToolSet> {
  /** Your tools (guarded) plus skillshelf's (`skill_<name>`, `activate_skill`, `end_skill`). */
  tools: TOOLS;
  prepareStep: PrepareStepFunction<TOOLS>;
  /**
   * Yours, when you passed one. (Typed over any tool set: it is the one you passed, and this
   * way it fits whatever `TOOLS` the call infers.)
   */
  repairToolCall?: ToolCallRepairFunction<ToolSet>;
  /**
   * With `improve` on (or when you passed your own `onEnd`): starts core's improvement
   * analysis for the skills the run used, then calls yours.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the end event of generateText and streamText alike, for any tool set.
  onEnd?: (event: any) => Promise<void>;
}

export interface RoleToolOptions {
  /** Model for the sub-agent when the role names none (or `resolveModel` can't map it). */
  model: LanguageModel;
  /** The tools roles may be given; each role gets only those its `allowed-tools` admits. */
  tools?: ToolSet;
  /** Map a role's `model:` id to a model instance. Default: always `model`. */
  resolveModel?: (id: string) => LanguageModel | undefined;
  /** Sub-agent stop condition. Default: core's step limit for role sub-agents. */
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
}

export interface Skills {
  readonly shelf: Shelf;
  /** Options to spread into streamText / generateText (or a ToolLoopAgent built per request). Call it once per request. */
  wrap<TOOLS extends ToolSet = ToolSet>(options?: WrapOptions<TOOLS>): WrappedOptions<TOOLS>;
  /**
   * For a long-lived agent: `new ToolLoopAgent({ model, tools, prepareCall: skills.prepareCall })`.
   * Every `agent.generate/stream` call is then wrapped with that call's messages.
   */
  prepareCall<ARGS extends AgentCallArgs>(args: ARGS): ARGS;
  /**
   * The skill session in force after `messages` (e.g. to show the active skills in a UI).
   * Pass your tools when one of them may be named like a skill tool (`skill_<name>`).
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
  /**
   * The improvement hook by hand (e.g. after a `ToolLoopAgent` call, whose `prepareCall`
   * cannot add an `onEnd`): the whole conversation, the run's response included
   * (`[...messages, ...result.responseMessages]`). Uses `improve`'s options, or `options`.
   */
  afterRun(messages: readonly ModelMessage[], options?: ImproveOptions): Promise<AfterRunResult>;
}

export async function createSkills(options: CreateSkillsOptions): Promise<Skills> {
  const shelf = await options.shelf;
  const refreshEachRun = options.refresh ?? true;
  const report = options.onDiagnostic ?? reportOnce();
  const improveOptions = options.improve === true ? {} : options.improve || undefined;
  const improve = improveOptions ? improveAfterRun(shelf, improveOptions) : undefined;
  const modelFor = skillModels(options.resolveModel, report);
  await shelf.refresh();

  function wrap<TOOLS extends ToolSet = ToolSet>(
    wrapOptions: WrapOptions<TOOLS> = {},
  ): WrappedOptions<TOOLS> {
    const hostTools: ToolSet = wrapOptions.tools ?? {};
    const hostToolNames = Object.keys(hostTools);
    const filesOf = wrapOptions.files ?? options.files;
    const ids = wrapOptions.ids;
    const open = (messages: readonly ModelMessage[]) => {
      const files = reportedFiles(filesOf, messages, report);
      return {
        history: toHistory(messages),
        tools: hostToolNames,
        ...(files && { files }),
        ...(ids && { ids }),
      };
    };
    const sessions = stepSessions((messages) => {
      // Planned, so its calls are judged by what the step it answers offered. The calls still
      // waiting for a result are judged as their response: the SDK runs the ones the user
      // approved before the request's first step, next to an activation waiting with them.
      const opened = open(messages);
      const session = shelf.session(opened);
      session.plan();
      return respondToPendingCalls(session, opened.history);
    });
    // The step's own model (before a skill's `model:`): a forked skill's sub-agent runs on it.
    let agentModel: LanguageModel | undefined;
    const fork = (f: Fork, abortSignal?: AbortSignal) =>
      runForkAgent(f, {
        tools: hostTools,
        model: (lastSession && modelFor(f.model, lastSession, f.skill)) ?? agentModel!,
        ...(abortSignal && { abortSignal }),
      });

    // The AI SDK reads this object again on every step (after prepareStep), so a skill tool
    // the step's plan offers is put in (or refreshed: its description and schema are the
    // plan's) before the step runs. One that is no longer offered stays registered and is
    // hidden from the provider: a model that calls it still gets core's answer.
    const skillToolNames = new Set<string>();
    // A call the user approved runs before the first step, looked up here before any skill
    // tool is registered: one of skillshelf's is registered on that lookup (approved-skill-calls.ts).
    let bare: Session | undefined;
    const tools: ToolSet = withSkillToolsOnLookUp({ ...guardTools(hostTools, sessions) }, (name) => {
      bare ??= shelf.session({ tools: hostToolNames });
      if (name in hostTools || !bare.isSkillTool(name)) return undefined;
      skillToolNames.add(name);
      // Hidden until a step offers it (that step registers it again, described). Before the
      // first step the agent's model is unknown, so a forked skill reads FORK_UNAVAILABLE.
      const spec = { name, description: "", inputSchema: { type: "object" } };
      return skillTool(spec, sessions, { onDiagnostic: report, ...(agentModel && { fork }) });
    });
    // The run's first prompt and its latest session: what the end-of-run hook reads.
    let firstMessages: readonly ModelMessage[] | undefined;
    let lastSession: Session | undefined;
    const offer = (specs: readonly ToolSpec[]) => {
      for (const spec of specs) {
        if (spec.name in hostTools) continue; // core never names one after a host tool; belt and braces
        tools[spec.name] = skillTool(spec, sessions, { fork, onDiagnostic: report });
        skillToolNames.add(spec.name);
      }
    };

    const prepareStep: PrepareStepFunction<TOOLS> = async (step) => {
      if (refreshEachRun && step.stepNumber === 0) await shelf.refresh();
      const own = await wrapOptions.prepareStep?.(step);
      const session = await shelf.openSession(open(step.messages));
      agentModel = own?.model ?? step.model;
      sessions.begin(session, step.messages, own?.messages);
      firstMessages ??= step.messages;
      lastSession = session;
      const plan = session.plan();
      for (const diagnostic of plan.diagnostics) report(diagnostic);
      offer(plan.tools);
      // Registered hidden, so a call to one reaches core's refusal instead of the SDK's NoSuchToolError.
      offer(plan.unoffered ?? []);

      // The host's restriction (per step, else static) decides which of its tools exist for
      // this step; of those, the ones the skills rule out stay active but are hidden from the
      // provider, so a call to one reaches the guard.
      const limit: readonly string[] | undefined = own?.activeTools ?? wrapOptions.activeTools;
      const hostActive = hostToolNames.filter((name) => limit === undefined || limit.includes(name));
      const allowed = new Set(plan.allowedTools);
      const offered = new Set(plan.tools.map((t) => t.name));
      const hide = [
        ...hostActive.filter((name) => !allowed.has(name)),
        ...[...skillToolNames].filter((name) => !offered.has(name)),
      ];
      const { system: deprecatedSystem, ...rest } = own ?? {};
      return {
        ...rest,
        model: respondingModel(
          stepModel(modelFor(plan.model, session) ?? own?.model ?? step.model),
          session,
          { hide },
        ),
        activeTools: [...hostActive, ...skillToolNames],
        instructions: withSkillInstructions(
          own?.instructions ?? deprecatedSystem ?? step.initialInstructions,
          plan.system,
        ),
      } as PrepareStepResult<TOOLS>;
    };

    const wrapped: WrappedOptions<TOOLS> = { tools: tools as TOOLS, prepareStep };
    if (improve || wrapOptions.onEnd) {
      wrapped.onEnd = async (event: { responseMessages?: readonly ModelMessage[] }) => {
        if (improve && lastSession) {
          // The last step's session has seen every call of the run (ends included).
          const messages = [...(firstMessages ?? []), ...(event.responseMessages ?? [])];
          await improve({ state: lastSession.toJSON(), transcript: toTranscript(messages) });
        }
        await wrapOptions.onEnd?.(event as Parameters<GenerateTextOnEndCallback<TOOLS>>[0]);
      };
    }
    if (wrapOptions.repairToolCall) {
      wrapped.repairToolCall = wrapOptions.repairToolCall as unknown as ToolCallRepairFunction<ToolSet>;
    }
    return wrapped;
  }

  const prepareCall = <ARGS extends AgentCallArgs>(args: ARGS): ARGS => {
    const messages =
      args.messages ??
      (typeof args.prompt === "string" ? [{ role: "user" as const, content: args.prompt }] : args.prompt);
    const wrapped = wrap({
      messages,
      tools: args.tools,
      prepareStep: args.prepareStep,
      activeTools: args.activeTools,
      repairToolCall: args.repairToolCall as ToolCallRepairFunction<ToolSet> | undefined,
    });
    return { ...args, ...wrapped } as unknown as ARGS;
  };

  return {
    shelf,
    wrap,
    prepareCall,
    session: (messages, tools = {}) =>
      shelf.session({ history: toHistory(messages), tools: Object.keys(tools) }),
    roleTools: (roleOptions) => createRoleTools(shelf, roleOptions, report),
    roleTool: (roleOptions) => createRoleTool(shelf, roleOptions, report),
    refresh: () => shelf.refresh(),
    afterRun: async (messages, runOptions) => {
      const session = await shelf.openSession({ history: toHistory(messages) });
      const run = { state: session.toJSON(), transcript: toTranscript(messages) };
      return improveAfterRun(shelf, runOptions ?? improveOptions ?? {})(run);
    },
  };
}
