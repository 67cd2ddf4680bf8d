/**
 * `skillsMiddleware({ shelf })`: skillshelf for `createAgent`. Every decision (what to offer,
 * what is allowed, what a call does) is core's session; this file only maps it onto
 * LangChain's hooks:
 *
 * - wrapModelCall opens the one session of the model call (the agent's tools are known only
 *   there), plans, hands the model's response to `session.respond` before any call runs, and
 *   persists the state that call was planned with (a "/name", a skill the new message ended,
 *   the turn marker that keeps a message from being begun twice) in the same step, through the
 *   Command it returns: an afterModel hook would cost LangGraph one more node per model call.
 * - wrapToolCall runs each call of the response with that same session: skillshelf's tools
 *   answered by core (a Command writes the state), host tools guarded, then run inside it.
 */

import { type AIMessage, type BaseMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { EventIds, SessionState, Shelf, ToolCall } from "@skillshelf/core";
import {
  isBlockedResult,
  isFrameworkUnknownToolText,
  reportedFiles,
  reportOnce,
  runHostTool,
  skillModels,
  unknownTool,
} from "@skillshelf/core/adapter";
import { createMiddleware, type ModelRequest } from "langchain";
import { commandRecordMessage, withoutCommandRecords } from "./command-records.js";
import type { OnDiagnostic } from "./diagnostics.js";
import { runForkAgent } from "./fork-agent.js";
import { type AgentRun, analyzeAfterRun, type ImproveOptions } from "./improve.js";
import { addedMessages, aiMessageOf, withState } from "./model-response.js";
import { createResponses, type Response } from "./responses.js";
import { resultMessage, skillToolDeclaration, skillToolRunner } from "./skill-tools.js";
import { STATE_KEY, skillsStateSchema, snapshot, storedState, storedTools, toHistory } from "./state.js";
import { type AnyTool, toolName } from "./tool-name.js";

export interface SkillsMiddlewareOptions {
  shelf: Shelf;
  /**
   * Check the skill folders for edits before a model call that answers new input (default
   * true): once per run, as the other adapters do, not again at each step of the tool loop.
   */
  refresh?: boolean;
  /**
   * Problems core finds while planning, e.g. a skill whitelists a tool name that matches none
   * of your tools (map it with `createShelf({ toolAliases })`). Default: each once, on console.warn.
   */
  onDiagnostic?: OnDiagnostic;
  /**
   * Opt in to the improvement loop, the same option in every skillshelf adapter: after a run
   * that used skills, core analyses how each was used and keeps its proposals for the user to
   * accept or reject (nothing is written without them). `true` uses the shelf's `generate`.
   */
  improve?: boolean | ImproveOptions;
  /** Your own hook, called after a run in which a skill was active. */
  afterRun?: (run: AgentRun) => void | Promise<void>;
  /**
   * Map a skill's `model` id to a chat model: while a skill that names one is active, its
   * model calls go to what this returns (as the request's `model`). Undefined, or no
   * `resolveModel`, keeps the agent's model, and an `onDiagnostic` says so once.
   */
  resolveModel?: (id: string) => ModelRequest["model"] | undefined;
  /**
   * The files this conversation touches, as your app knows them (opened, edited; relative to
   * the project), read from the agent's state before each model call: a skill with `paths`
   * is offered when one of them, or a path the message mentions, matches its globs.
   */
  files?: (state: Record<string, unknown>) => readonly string[] | undefined;
}

type ThreadState = Parameters<typeof storedState>[0] & { messages: BaseMessage[] };

/** What a LangGraph run says about itself: its thread and run, stamped on every skill event. */
type RunInfo = {
  executionInfo?: { threadId?: string; runId?: string };
  configurable?: { thread_id?: unknown; run_id?: unknown };
};

function idsOf(runtime: RunInfo | undefined): EventIds | undefined {
  const thread = runtime?.executionInfo?.threadId ?? runtime?.configurable?.thread_id;
  const run = runtime?.executionInfo?.runId ?? runtime?.configurable?.run_id;
  const ids: EventIds = {};
  if (typeof thread === "string" && thread !== "") ids.thread = thread;
  if (typeof run === "string" && run !== "") ids.run = run;
  return ids.thread !== undefined || ids.run !== undefined ? ids : undefined;
}

export function skillsMiddleware(options: SkillsMiddlewareOptions) {
  const { shelf, refresh = true } = options;
  const improve = options.improve ? analyzeAfterRun(shelf, options.improve) : undefined;
  const report = options.onDiagnostic ?? reportOnce();
  const responses = createResponses();
  const modelFor = skillModels(options.resolveModel, report);

  // The agent's tool names, as the last model request showed them: a session opened outside
  // a model call (a resumed thread) needs them too.
  let agentTools: readonly string[] = [];
  // The agent's tools and model, for a forked skill's sub-agent (it runs on the agent's own).
  let agentToolObjects: readonly AnyTool[] = [];
  let agentModel: ModelRequest["model"] | undefined;

  /** The host's side of a session: the files it reports, the run's ids. */
  const hostOptions = (state: Record<string, unknown>, runtime?: RunInfo) => {
    const files = reportedFiles(options.files, state, report);
    const ids = idsOf(runtime);
    return { ...(files && { files }), ...(ids && { ids }) };
  };
  /**
   * A session of a response this process did not answer, with the tools that response's model
   * call had (kept with the state), else the agent's as this process last saw them.
   */
  const open = async (state: ThreadState, messages: readonly BaseMessage[] = state.messages) => {
    const tools = storedTools(state) ?? agentTools;
    const session = await shelf.openSession({
      state: storedState(state),
      history: toHistory(messages),
      tools,
      ...hostOptions(state),
    });
    return { session, tools };
  };

  /**
   * The session of a response this process did not answer (a thread resumed elsewhere):
   * opened from the state and the conversation up to that response, then handed the same
   * calls, so it gives the same answers the lost one would have.
   */
  const reopening = new WeakMap<AIMessage, Promise<Response>>();
  const reopen = (state: ThreadState, message: AIMessage): Promise<Response> => {
    let pending = reopening.get(message);
    if (!pending) {
      // One per response, however many of its calls run at once.
      const index = state.messages.indexOf(message);
      pending = open(state, index < 0 ? state.messages : state.messages.slice(0, index)).then(
        ({ session, tools }) => {
          // Planned as the lost one was, so its calls are judged by what that step offered.
          session.plan();
          const response = { session, planned: session.toJSON(), tools };
          responses.answered(message, [], response);
          return response;
        },
      );
      reopening.set(message, pending);
    }
    return pending;
  };

  return createMiddleware({
    name: "skillshelf",
    stateSchema: skillsStateSchema,

    wrapModelCall: async (request, handler) => {
      // A call after tool results continues the run the last refresh served; the check waits
      // on the event loop (a watcher's events), so once per step would cost every step.
      if (refresh && !ToolMessage.isInstance(request.messages.at(-1))) await shelf.refresh();
      agentTools = request.tools.map(toolName);
      agentToolObjects = request.tools;
      agentModel = request.model;
      const session = await shelf.openSession({
        state: storedState(request.state),
        history: toHistory(request.messages),
        tools: agentTools,
        ...hostOptions(request.state, request.runtime as RunInfo),
      });
      const plan = session.plan();
      const planned = session.toJSON();
      for (const diagnostic of plan.diagnostics) report(diagnostic);
      const record = session.commandRecord();
      if (record) {
        // The user's "/name" is recorded first, without the model (command-records.ts).
        const message = commandRecordMessage(record);
        responses.answered(message, [], { session, planned, tools: agentTools });
        return new Command({
          update: { messages: [message], [STATE_KEY]: snapshot(planned, agentTools) },
        }) as never;
      }
      const allowed = new Set(plan.allowedTools);
      const response = await handler({
        ...request,
        messages: withoutCommandRecords(request.messages),
        model: modelFor(plan.model, session) ?? request.model,
        // Hidden tools stay registered: a call to one still reaches wrapToolCall and core's refusal.
        tools: [
          ...request.tools.filter((t) => allowed.has(toolName(t))),
          ...plan.tools.map(skillToolDeclaration),
        ],
        systemMessage: appendSystem(request.systemMessage, plan.system),
      });
      const message = aiMessageOf(response);
      const tools = agentTools;
      if (message) responses.answered(message, addedMessages(response), { session, planned, tools });
      if (sameStored(request.state, planned, tools)) return response;
      return withState(response, planned, tools);
    },

    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const call: ToolCall = { name: toolCall.name, input: toolCall.args };
      if (toolCall.id) call.id = toolCall.id;
      const holder = responses.holding(request.state.messages, toolCall.id);
      const response =
        responses.of(holder) ??
        (holder ? await reopen(request.state, holder) : await reopenFor(request.state, call));
      const { session } = response;

      if (session.isSkillTool(toolCall.name)) {
        const model = agentModel;
        const tools = agentToolObjects;
        const runner = skillToolRunner(session, toolCall.name, toolCall.id, {
          onDiagnostic: report,
          tools: response.tools,
          // A forked skill's sub-agent: the agent's own model, or the one its skill names.
          ...(model && {
            fork: (fork, signal) =>
              runForkAgent(fork, {
                tools,
                model: modelFor(fork.model, session, fork.skill) ?? model,
                ...(signal && { signal }),
              }),
          }),
        });
        // Through the handler, so the middleware inside this one still sees the call.
        return handler({ ...request, tool: runner });
      }
      // A tool the agent does not have (`request.tool` is set for every registered one): the
      // model reads core's answer, as in every framework, not a refusal or ToolNode's list of
      // every tool, hidden ones included (unknown-tools.ts). Still guarded first: another
      // middleware may supply a dynamic tool's implementation inside this one.
      const unknown = request.tool === undefined;
      const result = runHostTool(session, call, () => handler(request));
      if (isBlockedResult(result)) {
        const answer = unknown ? unknownTool(toolCall.name) : result;
        return resultMessage(answer, toolCall.id ?? "", toolCall.name);
      }
      if (!unknown) return result;
      const message = await result;
      return ToolMessage.isInstance(message) && isFrameworkUnknownToolText(message.content, toolCall.name)
        ? resultMessage(unknownTool(toolCall.name), toolCall.id ?? "", toolCall.name)
        : message;
    },

    // Only with something to do after a run: every hook is a node LangGraph runs in each invoke.
    ...((improve || options.afterRun) && {
      afterAgent: async (state: ThreadState) => {
        const stored = storedState(state);
        await improve?.({ state: stored ?? { active: [] }, messages: state.messages });
        const active = stored?.active ?? [];
        if (active.length > 0) await options.afterRun?.({ active, messages: state.messages });
      },
    }),
  });

  /** A tool call no response in the state holds (a host running the tool node on its own). */
  async function reopenFor(state: ThreadState, call: ToolCall): Promise<Response> {
    const { session, tools } = await open(state);
    session.plan();
    const planned = session.toJSON();
    session.respond([call]);
    return { session, planned, tools };
  }
}

function appendSystem(system: SystemMessage, text: string): SystemMessage {
  if (!text) return system;
  return system.text ? system.concat(`\n\n${text}`) : new SystemMessage(text);
}

/** Whether the thread already stores this state, written with these tools (no write needed). */
function sameStored(state: ThreadState, planned: SessionState, tools: readonly string[]): boolean {
  const stored = storedState(state);
  return stored !== undefined && JSON.stringify(stored) === JSON.stringify(snapshot(planned, tools));
}
