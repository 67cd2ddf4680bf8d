/**
 * `skillsMiddleware({ shelf })`: skillshelf for `createAgent`. Every decision (what to offer,
 * what is allowed, what an activation does) is core's `TurnPlan` / `Session`; this file only
 * translates it into LangChain's hooks.
 */

import { type BaseMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import type { Session, SessionState, Shelf, ToolResult, ToolSpec } from "@skillshelf/core";
import { createMiddleware } from "langchain";
import { z } from "zod/v4";
import { type OnDiagnostic, warnOnce } from "./diagnostics.js";
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
  const report = options.onDiagnostic ?? warnOnce();

  /** The session for this thread: from the checkpoint, else rebuilt from the messages. */
  const sessionOf = (state: { [STATE_KEY]?: SessionState | undefined; messages: BaseMessage[] }): Session =>
    state[STATE_KEY] ? shelf.session(state[STATE_KEY]) : shelf.sessionFromHistory(toHistory(state.messages));

  return createMiddleware({
    name: "skillshelf",
    stateSchema: skillsStateSchema,

    // Planning a new user message can change the state (an explicit "/name"; the first call
    // of a thread without a checkpoint), so it happens here, where a hook may return a state
    // update. wrapModelCall then only replays the plan: returning a Command from it would drop
    // a structured response (responseFormat).
    beforeModel: async (state) => {
      if (refresh) await shelf.refresh();
      const stored = state[STATE_KEY];
      const session = sessionOf(state);
      const user = latestUserMessage(state.messages);
      session.plan({ message: user.text, planned: user.planned, tools: [] });
      const next = session.toJSON();
      if (stored !== undefined && sameState(stored, next)) return undefined;
      return { [STATE_KEY]: snapshotUpdate(next) };
    },

    wrapModelCall: (request, handler) => {
      const session = sessionOf(request.state);
      const plan = session.plan({
        message: latestUserMessage(request.messages).text,
        planned: true, // beforeModel planned it
        tools: request.tools.map(toolName),
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

    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const callId = toolCall.id ?? "";
      const session = sessionOf(request.state);

      if (session.isActivationTool(toolCall.name)) {
        // Activation tools are offered per call (the set changes with hot reload), so LangChain
        // has no implementation registered for them: supply it here, through the handler so
        // inner middleware still sees the call.
        const activate = tool(
          (input: Record<string, unknown>) => {
            const result = session.callActivationTool(toolCall.name, input);
            const message = resultMessage(
              result ?? notAnActivationTool(toolCall.name),
              callId,
              toolCall.name,
            );
            if (result?.status !== "success") return message;
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
      const active = state[STATE_KEY]?.active ?? [];
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

function notAnActivationTool(name: string): ToolResult {
  return { status: "error", error_type: "NOT_FOUND", message: `${name} is not a skill activation tool.` };
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
