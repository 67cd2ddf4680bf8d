/**
 * skillshelf's own tools (skill_<name>, activate_skill, end_skill) in LangChain. They change
 * with the skills (hot reload, the active set), so they are offered per model call and never
 * registered: the middleware supplies their implementation in wrapToolCall.
 */

import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import type { Fork, Session, ToolResult, ToolSpec } from "@skillshelf/core";
import { listenForWorkflowProgress, type OnDiagnostic, runSkillTool } from "@skillshelf/core/adapter";
import { z } from "zod/v4";
import { STATE_KEY, snapshot } from "./state.js";

/**
 * Core hands out the same ToolSpec for the same request and skills, so every model call of a
 * turn offers the same declarations: made once per spec, not per call.
 */
const declarations = new WeakMap<ToolSpec, ReturnType<typeof declare>>();

function declare(spec: ToolSpec) {
  return tool(
    () => {
      throw new Error(`${spec.name} runs through the skillshelf middleware's wrapToolCall`);
    },
    { name: spec.name, description: spec.description, schema: spec.inputSchema },
  );
}

/** What the model is offered; its calls run through `skillToolRunner`, never through this. */
export function skillToolDeclaration(spec: ToolSpec) {
  let declaration = declarations.get(spec);
  if (!declaration) {
    declaration = declare(spec);
    declarations.set(spec, declaration);
  }
  return declaration;
}

/**
 * Any input, an object or not: core checks a call's arguments itself and answers a bad one
 * with INVALID_ARGUMENTS. (An object schema here let LangChain answer a string or an array
 * first, with its own error text and a stack trace of the host's files.) One schema for every
 * runner (zod compiles a parser per schema).
 */
const anyInput = z.any();

export interface SkillToolRunnerOptions {
  /** Runs a `context: fork` skill's sub-agent; without it such a skill reads FORK_UNAVAILABLE. */
  fork?: (fork: Fork, signal?: AbortSignal) => Promise<string>;
  onDiagnostic?: OnDiagnostic;
  /** The agent's tool names the session was opened with, written with the state. */
  tools?: readonly string[];
}

/**
 * The tool that answers one call to a skillshelf tool with the response's session. Its
 * Command writes the session's full state (every call of the response writes the same one).
 */
export function skillToolRunner(
  session: Session,
  name: string,
  toolCallId: string | undefined,
  options: SkillToolRunnerOptions = {},
) {
  return tool(
    // Async: a skill script's run is a promise (approval, then the process), and so is a fork.
    async (input: unknown, runtime) => {
      const { fork, onDiagnostic } = options;
      const run = () =>
        runSkillTool(
          session,
          { name, input, ...(toolCallId && { id: toolCallId }) },
          {
            ...(fork && { fork: (f: Fork) => fork(f, runtime?.signal) }),
            ...(onDiagnostic && { onDiagnostic }),
          },
        );
      // A workflow run's steps go to LangGraph's custom stream as they happen
      // (`streamMode: "custom"`); the writer drops them in any other mode.
      const writer = customStreamWriter(runtime);
      const result = await (writer ? listenForWorkflowProgress(writer, run).value : run());
      return new Command({
        update: {
          [STATE_KEY]: snapshot(session.toJSON(), options.tools ?? []),
          messages: [resultMessage(result, toolCallId ?? "", name)],
        },
      });
    },
    { name, description: "skillshelf", schema: anyInput },
  );
}

/** LangGraph's writer for the custom stream, which it puts in the config of every tool call it runs. */
function customStreamWriter(runtime: unknown): ((chunk: unknown) => void) | undefined {
  const writer = (runtime as { writer?: unknown } | undefined)?.writer;
  return typeof writer === "function" ? (writer as (chunk: unknown) => void) : undefined;
}

/** A structured result as the model reads it: JSON text; a refusal is a tool message with status "error". */
export function resultMessage(result: ToolResult, toolCallId: string, name: string): ToolMessage {
  return new ToolMessage({
    content: JSON.stringify(result),
    tool_call_id: toolCallId,
    name,
    status: result.status === "success" ? "success" : "error",
  });
}
