/**
 * The input processor. Each Mastra run (one `generate()`/`stream()`) opens one core session
 * at its first step, from the thread (or a state the caller carries) and the agent's tools,
 * and keeps it in Mastra's per-request processor state: every model call of the run and
 * every tool call of its responses use that same object. On each step the plan becomes the
 * step's system message, tools, `activeTools` and model. Every skill decision (explicit
 * "/name", "/done", matching, catalog, activation, scope, whitelist) is core's.
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import { type MastraModelConfig, resolveModelConfig } from "@mastra/core/llm";
import type {
  ProcessInputStepArgs,
  ProcessInputStepResult,
  ProcessOutputResultArgs,
  Processor,
} from "@mastra/core/processors";
import { MASTRA_THREAD_ID_KEY, type RequestContext } from "@mastra/core/request-context";
import {
  type Diagnostic,
  type EventIds,
  type Fork,
  type ImproveOptions,
  improveAfterRun,
  type Session,
  type SessionState,
  type Shelf,
  type ToolSpec,
  type TurnPlan,
} from "@skillshelf/core";
import { reportedFiles, reportOnce, respondingModel, skillModels } from "@skillshelf/core/adapter";
import { runForkAgent } from "./fork-agent.js";
import { toHistory } from "./history.js";
import { checkpointKey, resumeGuards, unguardedTools, writeCheckpoint } from "./resume.js";
import {
  clientToolNames,
  guardTools,
  type RefusedClientCalls,
  refusedClientTools,
  sentName,
  skillTool,
  toolKeyOf,
} from "./tools.js";
import { toTranscript } from "./transcript.js";

export interface SkillsProcessorOptions {
  /** Processor id, also the tag of its system message and the request-context key it reads. Default "skillshelf". */
  id?: string;
  /** Call `shelf.refresh()` (a cheap change check) before each run. Default true. */
  refresh?: boolean;
  /**
   * Where a caller-carried session state lives in the request context. When the request
   * context holds a SessionState under this key, the run starts from it (instead of
   * rebuilding from the thread) and the key holds the updated state afterwards.
   * Default: the processor id.
   */
  stateKey?: string;
  /** Every plan, for logging or tests. */
  onPlan?: (plan: TurnPlan, step: { stepNumber: number; session: Session }) => void;
  /** Problems worth a human's attention (unknown whitelisted tools, tool-name clashes). Default: console.warn, once each. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Opt in to the improvement loop, the same option in every skillshelf adapter: after a run
   * that used skills, core analyses how each was used and keeps its proposals for the user to
   * accept or reject (nothing is written without them). `true` uses the shelf's `generate`.
   * Runs at the end of the run: put the processor in `outputProcessors` too.
   */
  improve?: boolean | ImproveOptions;
  /**
   * Map a skill's `model` id to a Mastra model: while a skill that names one is active, its
   * steps run on what this returns (processInputStep's `model`). Undefined, or no
   * `resolveModel`, keeps the agent's model, and an `onDiagnostic` says so once.
   */
  resolveModel?: (id: string) => MastraModelConfig | undefined;
  /**
   * The files the conversation touches, as your app knows them (opened, edited; relative to
   * the project), read at the start of each run: a skill with `paths` is offered when one of
   * them, or a path the message mentions, matches its globs.
   */
  files?: (run: {
    messages: readonly MastraDBMessage[];
    requestContext?: RequestContext;
  }) => readonly string[] | undefined;
}

/** The run's thread (memory's, from the request context or the messages) and Mastra's run id. */
function idsOf(args: ProcessInputStepArgs): EventIds | undefined {
  const fromContext = args.requestContext?.get(MASTRA_THREAD_ID_KEY);
  const fromMessages = (args.messages as MastraDBMessage[]).findLast(
    (m) => typeof m.threadId === "string",
  )?.threadId;
  const thread = typeof fromContext === "string" && fromContext !== "" ? fromContext : fromMessages;
  const ids: EventIds = {};
  if (thread) ids.thread = thread;
  // `runId` joined the step arguments after 1.58 (the lowest version the peer range allows).
  const runId = (args as { runId?: unknown }).runId;
  if (typeof runId === "string" && runId !== "") ids.run = runId;
  return ids.thread !== undefined || ids.run !== undefined ? ids : undefined;
}

/** What the processor keeps for one run (Mastra's per-request processor state). */
interface Run {
  session: Session;
  /** The agent's own tools as the run started, unwrapped: every step guards these. */
  hostTools: Record<string, unknown>;
  /** The host tools run through core's guard: the same session and tools on every step of the run. */
  guarded: Record<string, unknown>;
  /**
   * The host tools the model may be offered in this run: all of them, or those of the caller's
   * per-call `activeTools` when it passed some (skillshelf only narrows them). Fixed for the run.
   */
  usable: readonly string[];
  /**
   * Checkpoint the live state in the request context (a call resumed in another process is
   * judged by it: resume.ts), and write it back where the caller carries it.
   */
  save: () => void;
  /** The agent's model as the run started: a forked skill's sub-agent runs on it (or its skill's). */
  model: MastraModelConfig;
  /** Runs a `context: fork` skill's sub-agent on the run's tools and model. */
  fork: (fork: Fork, abortSignal?: AbortSignal) => Promise<string>;
  /**
   * The run's skill tools by core's spec: core hands out the same spec object while the tool
   * stays the same, so a later step of the run reuses the tool instead of building it again.
   * Per run, never shared: each tool answers through this run's session.
   */
  skillTools: Map<ToolSpec, unknown>;
  /**
   * Every skill tool the run has registered, by name, as its latest plan made it: one a step
   * does not offer stays registered, hidden from the model, so a call to it reaches core's
   * answer (a structured refusal) instead of Mastra's unknown-tool error.
   */
  registered: Map<string, unknown>;
  /** `registered` as the record a step returns, rebuilt only when a step registers a new tool. */
  ours: Record<string, unknown>;
  /** The last step's model, the model it wrapped and the tools it hid: reused while they hold. */
  responding?: { from: unknown; hide: string; model: unknown };
  /** The host tools the client runs (no `execute`) among `usable`: Mastra hands their calls over. */
  clientTools: readonly string[];
  /** `clientTools` with the `execute` getter that keeps a call core refuses from the client (tools.ts). */
  client: Record<string, unknown>;
  /** Core's refusals of the last response's client calls, by call id, for that `execute` to answer. */
  refusedClientCalls: RefusedClientCalls;
  /** The tools the current step gives Mastra: a call is judged as the one of them Mastra runs. */
  stepTools: Record<string, unknown>;
  /** The ids of the last response's calls, as judged: only these may be resumed (resume.ts). */
  judged: readonly string[];
}

const RUN = Symbol("skillshelf.run");

/** The host tools a run may offer: every one, or only those in the caller's per-call `activeTools`. */
function usableTools(
  hostTools: Record<string, unknown>,
  callerActive: readonly string[] | undefined,
): string[] {
  const names = Object.keys(hostTools);
  if (!callerActive) return names;
  const active = new Set(callerActive);
  return names.filter((name) => active.has(name));
}

/** The step's model wrapped so the run's session sees each response first; the last step's wrapper while nothing changed. */
function respondingFor<M extends object>(
  run: Run,
  model: M,
  hide: readonly string[],
  clientTools: readonly string[],
): M {
  const key = `${hide.join("\u0000")}\u0001${clientTools.join("\u0000")}`;
  const last = run.responding;
  if (last && last.from === model && last.hide === key) return last.model as M;
  const refused = run.refusedClientCalls;
  const wrapped = respondingModel(model, run.session, {
    hide,
    clientTools,
    // Mastra runs a call by a provider tool's model-facing name, or a tool's id, as that tool.
    toolOf: (name) => toolKeyOf(run.stepTools, name),
    // Core's refusal of a client call is answered by the tool's late `execute` (tools.ts).
    answerRefused: (call, refusal) => {
      // (No id: under a symbol, a key no id takes, so the tool still refuses; its `execute`
      // judges the call again. Never a string: the model picks its ids.)
      refused.set(call.id ?? Symbol(call.name), { name: call.name, refusal });
    },
    // Mastra may suspend a call of this response and resume it in another process.
    onJudged: (calls) => {
      run.judged = calls.flatMap((call) => (call.id !== undefined ? [call.id] : []));
      run.save();
    },
  });
  run.responding = { from: model, hide: key, model: wrapped };
  return wrapped;
}

/** The processor: Mastra's input (and output) processor, with the tools a resumed call runs with. */
export type SkillsProcessor = Processor<string> &
  Required<Pick<Processor<string>, "processInputStep" | "processOutputResult">> & {
    getLoadedToolsForRequestContext(loaded: {
      tools?: Record<string, unknown>;
    }): Promise<Record<string, unknown>>;
  };

export function createSkillsProcessor(shelf: Shelf, options: SkillsProcessorOptions = {}): SkillsProcessor {
  const id = options.id ?? "skillshelf";
  const stateKey = options.stateKey ?? id;
  const checkpoint = checkpointKey(id);
  const refresh = options.refresh ?? true;
  const report = reportOnce(options.onDiagnostic);
  const modelFor = skillModels(options.resolveModel, report);
  const improve = options.improve
    ? improveAfterRun(shelf, options.improve === true ? {} : options.improve)
    : undefined;

  async function startRun(args: ProcessInputStepArgs): Promise<Run> {
    if (refresh) await shelf.refresh();
    // The agent's own tools, not the resume guards Mastra hands the step in their place.
    const hostTools = unguardedTools(args.tools ?? {});
    const context = args.requestContext;
    const carried = context?.get(stateKey) as SessionState | undefined;
    const messages = args.messages as MastraDBMessage[];
    const files = reportedFiles(
      options.files,
      { messages, ...(context && { requestContext: context }) },
      report,
    );
    const ids = idsOf(args);
    const session = await shelf.openSession({
      ...(files && { files }),
      ...(ids && { ids }),
      ...(carried !== undefined ? { state: carried } : {}),
      history: toHistory(args.messages as MastraDBMessage[]),
      // Every tool the agent has: a host tool named like a skill tool (`skill_pdf`,
      // `activate_skill`) stays the host's, in this run and when a later one replays the thread.
      tools: Object.keys(hostTools),
    });
    const refusedClientCalls: RefusedClientCalls = new Map();
    const save = () => {
      const state = session.toJSON();
      writeCheckpoint(context, checkpoint, { state, calls: run.judged, refused: refusedClientCalls, ids });
      if (carried !== undefined) context?.set(stateKey, state);
    };
    const model = args.model as MastraModelConfig;
    const usable = usableTools(hostTools, args.activeTools);
    const clientTools = clientToolNames(hostTools, usable);
    const run: Run = {
      session,
      hostTools,
      guarded: guardTools(hostTools, session, save),
      usable,
      save,
      model,
      fork: async (f: Fork, abortSignal?: AbortSignal) =>
        runForkAgent(f, {
          tools: hostTools,
          model: modelFor(f.model, session, f.skill) ?? model,
          ...(abortSignal && { abortSignal }),
        }),
      skillTools: new Map(),
      registered: new Map(),
      ours: {},
      clientTools,
      client: refusedClientTools(hostTools, session, clientTools, refusedClientCalls),
      refusedClientCalls,
      stepTools: {},
      judged: [],
    };
    return run;
  }

  return {
    id,
    name: "skillshelf skills",
    async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult> {
      // A symbol key keeps the live session out of anything Mastra serializes.
      const state = args.state as { [RUN]?: Run };
      let run = state[RUN];
      if (!run) {
        run = await startRun(args);
        state[RUN] = run;
      }
      const { session } = run;
      const plan = session.plan();
      // A new step: the last response's client calls were handed over or answered.
      run.refusedClientCalls.clear();
      run.save();
      options.onPlan?.(plan, { stepNumber: args.stepNumber, session });
      for (const diagnostic of plan.diagnostics) report(diagnostic);

      // Our system message is tagged so it is replaced, not stacked, on every step and
      // leaves the agent's own instructions (and other processors' messages) untouched.
      args.messageList.clearSystemMessages(id);
      if (plan.system) args.messageList.addSystem(plan.system, id);

      const offered = new Set<string>();
      let registeredNew = false;
      for (const specs of [plan.tools, plan.unoffered ?? []]) {
        for (const spec of specs) {
          if (specs === plan.tools) offered.add(spec.name);
          let tool = run.skillTools.get(spec);
          if (!tool) {
            tool = skillTool(spec, session, run.save, { fork: run.fork, onDiagnostic: report });
            run.skillTools.set(spec, tool);
          }
          if (run.registered.get(spec.name) !== tool) {
            run.registered.set(spec.name, tool);
            registeredNew = true;
          }
        }
      }
      // Most steps of a run register nothing new: the record of the last step stands.
      if (registeredNew) run.ours = Object.fromEntries(run.registered);
      const { usable, ours } = run;
      const allowed = new Set(session.allowedTools(usable));
      // Host tools a skill rules out stay registered and active, so a call the model makes
      // anyway (it saw the tool earlier) reaches the guard: core's structured refusal and a
      // `tool-blocked` event. The model is not sent them, nor the skill tools this step does not offer.
      const hide: string[] = [];
      // Under the name the provider is sent it (a provider tool's own `name`, else its key).
      for (const name of usable) if (!allowed.has(name)) hide.push(sentName(run.hostTools, name));
      for (const name of run.registered.keys()) if (!offered.has(name)) hide.push(name);
      // Resolved here, not by Mastra: the response must pass through `respondingModel`.
      const skillModel = modelFor(plan.model, session);
      const model = skillModel
        ? ((await resolveModelConfig(skillModel, args.requestContext)) as typeof args.model)
        : args.model;
      run.stepTools = { ...run.guarded, ...run.client, ...ours };
      return {
        // The client's tools: a call core refuses (this step's plan, the same response, its input) reads why.
        tools: run.stepTools,
        activeTools: [...usable, ...run.registered.keys()],
        // Every response's tool calls reach `session.respond` before Mastra runs any of them,
        // and core judges each call of the client's tools there, hidden ones too.
        model: respondingFor(run, model, hide, run.clientTools),
      };
    },
    /**
     * Mastra's tools "loaded for the request": it runs a call resumed without its step's tools
     * (an approval after a restart) with these, so each is the agent's tool behind a guard
     * that judges the call against the run's checkpoint (resume.ts).
     */
    async getLoadedToolsForRequestContext(loaded: { tools?: Record<string, unknown> }) {
      return resumeGuards(shelf, checkpoint, loaded.tools ?? {});
    },
    // The end of the run (as an output processor): the run's session has seen every call.
    async processOutputResult(args: ProcessOutputResultArgs) {
      const run = (args.state as { [RUN]?: Run })[RUN];
      if (improve && run) {
        const messages = args.messageList.get.all.db();
        await improve({ state: run.session.toJSON(), transcript: toTranscript(messages) });
      }
      return args.messageList;
    },
  };
}
