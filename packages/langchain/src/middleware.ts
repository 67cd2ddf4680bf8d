/**
 * `skillsMiddleware({ shelf })`: skillshelf for `createAgent`. Every decision (what to offer,
 * what is allowed, what an activation does) is core's `TurnPlan` / `Session`; this file only
 * translates it into LangChain's hooks.
 */

import { AIMessage, type BaseMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import {
  reportOnce,
  runActivationTool,
  type Session,
  type SessionState,
  type Shelf,
  type ToolResult,
  type ToolSpec,
} from "@skillshelf/core";
import { createMiddleware } from "langchain";
import { z } from "zod/v4";
import type { OnDiagnostic } from "./diagnostics.js";
import { analyzeAfterRun, type ImproveOptions, type SkillRun } from "./improve.js";
import { latestUserMessage, STATE_KEY, skillsStateSchema, snapshotUpdate, toHistory } from "./state.js";
import { toolName } from "./tool-name.js";

/** Gets the file path out of a file-reading tool's arguments. */
export type ReadPath = (args: Record<string, unknown>) => string | undefined;

export interface SkillsMiddlewareOptions {
  shelf: Shelf;
  /**
   * Host tools that read files, so reading a SKILL.md counts as using that skill
   * (`shelf.noteRead`). Tool name → how to find the path; `true` looks at `path`,
   * `file_path`, `filePath`, `file`. Example: `{ read_file: true }`.
   */
  readTools?: Record<string, true | ReadPath>;
  /** Check the skill folders for edits before every model call (default true). */
  refresh?: boolean;
  /**
   * Problems core finds while planning, e.g. a skill whitelists a tool name that matches none
   * of your tools (map it with `createShelf({ toolAliases })`). Default: each once, on console.warn.
   */
  onDiagnostic?: OnDiagnostic;
  /**
   * Opt in to the improvement loop: after a run in which skills were active, core analyses how
   * each was used and keeps its proposals for the user to accept or reject (nothing is written
   * without them). `true` uses the shelf's `generate`.
   */
  improve?: boolean | ImproveOptions;
  /** Your own hook, called after a run in which a skill was active. */
  afterRun?: (run: SkillRun) => void | Promise<void>;
}

export function skillsMiddleware(options: SkillsMiddlewareOptions) {
  const { shelf, readTools = {}, refresh = true } = options;
  const improve = options.improve
    ? analyzeAfterRun(shelf, options.improve === true ? {} : options.improve)
    : undefined;
  const report = options.onDiagnostic ?? reportOnce();

  // The agent's own tool names. LangChain shows a middleware the agent's tools only in a model
  // request, so they are learned there (and from each registered tool that is called). Every
  // session gets them: a host tool named like an activation tool (`skill_pdf`, `activate_skill`)
  // is then never run or replayed as one, and the skill is offered under another name.
  const hostTools = new Set<string>();
  let overrides: { tools: readonly string[] } = { tools: [] };
  const learnTools = (names: readonly string[]) => {
    const before = hostTools.size;
    for (const name of names) hostTools.add(name);
    if (hostTools.size !== before) overrides = { tools: [...hostTools] };
  };

  /**
   * The session for this thread: from the checkpoint, else rebuilt from the messages. Outside
   * beforeModel the latest user message was already planned this turn (`planned`), so a
   * rebuild replays its "/name" instead of leaving it to a plan that must not run it again.
   */
  const sessionOf = (
    state: { [STATE_KEY]?: SessionState | undefined; messages: BaseMessage[] },
    planned: boolean,
  ): Session => {
    const stored = state[STATE_KEY];
    return stored
      ? shelf.session(stored, overrides)
      : shelf.sessionFromHistory(toHistory(state.messages, { planned }), overrides);
  };

  return createMiddleware({
    name: "skillshelf",
    stateSchema: skillsStateSchema,

    // Planning a new user message can change the state (an explicit "/name"), so it happens
    // here, where a hook may return a state update. wrapModelCall then only replays the plan:
    // returning a Command from it would drop a structured response (responseFormat).
    beforeModel: async (state) => {
      if (refresh) await shelf.refresh();
      const stored = state[STATE_KEY];
      const session = sessionOf(state, false);
      const user = latestUserMessage(state.messages);
      session.plan({ message: user.text, planned: user.planned, tools: overrides.tools });
      // A thread without state gets its first snapshot in afterModel, rebuilt once the model
      // request has shown the agent's tools; until then every hook rebuilds it from the history.
      if (stored === undefined) return undefined;
      const next = session.toJSON();
      if (sameState(stored, next)) return undefined;
      return { [STATE_KEY]: snapshotUpdate(next) };
    },

    wrapModelCall: (request, handler) => {
      const tools = request.tools.map(toolName);
      learnTools(tools);
      const session = sessionOf(request.state, true);
      const plan = session.plan({
        message: latestUserMessage(request.messages).text,
        planned: true, // beforeModel planned it
        tools,
      });
      for (const diagnostic of plan.diagnostics) report(diagnostic);
      const allowed = new Set(plan.allowedTools);
      return handler({
        ...request,
        tools: [
          ...request.tools.filter((t) => allowed.has(toolName(t))),
          ...plan.activationTools.map(activationToolFor),
        ],
        systemMessage: appendSystem(request.systemMessage, plan.system),
      });
    },

    // The first snapshot of a thread without state: the state this model call was planned
    // with, i.e. the conversation before its reply (whose tool calls have not run yet).
    afterModel: (state) => {
      if (state[STATE_KEY] !== undefined) return undefined;
      const reply = state.messages.findLastIndex((m) => AIMessage.isInstance(m));
      const planned = { messages: reply < 0 ? state.messages : state.messages.slice(0, reply) };
      return { [STATE_KEY]: snapshotUpdate(sessionOf(planned, true).toJSON()) };
    },

    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const callId = toolCall.id ?? "";
      // A registered tool is the host's (activation tools are offered per call, never registered).
      const registered = request.tool !== undefined;
      if (registered) learnTools([toolCall.name]);
      const session = sessionOf(request.state, true);

      if (!registered && session.isActivationTool(toolCall.name)) {
        // Activation tools are offered per call (the set changes with hot reload), so LangChain
        // has no implementation registered for them: supply it here, through the handler so
        // inner middleware still sees the call.
        const activate = tool(
          (input: Record<string, unknown>) => {
            const result = runActivationTool(session, toolCall.name, input);
            const message = resultMessage(result, callId, toolCall.name);
            if (result.status !== "success") return message;
            return new Command({ update: { [STATE_KEY]: session.toJSON(), messages: [message] } });
          },
          { name: toolCall.name, description: "skillshelf activation", schema: z.looseObject({}) },
        );
        return handler({ ...request, tool: activate });
      }

      // Hiding a tool from the model does not stop LangChain from running it: enforce here.
      const verdict = session.guard(toolCall.name);
      if (!verdict.allowed) return resultMessage(verdict.result, callId, toolCall.name);

      const result = await handler(request);
      const readPath = readTools[toolCall.name];
      if (readPath) {
        try {
          const path = (readPath === true ? defaultReadPath : readPath)(toolCall.args);
          if (path) shelf.noteRead(path);
        } catch {
          // Reading counts as use, a ranking hint: it must never fail the host's tool call.
        }
      }
      return result;
    },

    afterAgent: async (state) => {
      const active = sessionOf(state, true).toJSON().active;
      if (active.length === 0) return;
      const run: SkillRun = { active, messages: state.messages };
      await improve?.(run);
      await options.afterRun?.(run);
    },
  });
}

/** The model-facing declaration of an activation tool; it runs through `wrapToolCall`. */
function activationToolFor(spec: ToolSpec) {
  return tool(
    () => {
      throw new Error(`${spec.name} runs through the skillshelf middleware's wrapToolCall`);
    },
    { name: spec.name, description: spec.description, schema: spec.inputSchema },
  );
}

function resultMessage(result: ToolResult, toolCallId: string, name: string): ToolMessage {
  return new ToolMessage({
    content: JSON.stringify(result),
    tool_call_id: toolCallId,
    name,
    status: result.status === "success" ? "success" : "error",
  });
}

function appendSystem(system: SystemMessage, text: string): SystemMessage {
  if (!text) return system;
  return system.text ? system.concat(`\n\n${text}`) : new SystemMessage(text);
}

function sameState(a: SessionState, b: SessionState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const defaultReadPath: ReadPath = (args) => {
  for (const key of ["path", "file_path", "filePath", "file"]) {
    const value = args[key];
    if (typeof value === "string" && value) return value;
  }
  return undefined;
};
