/**
 * A call resumed in another process. Mastra suspends a run before a call that needs the
 * caller's approval (`requireToolApproval`, a tool's `requireApproval`), and the caller may
 * approve it after a restart: a new `Agent` and `Mastra` on the same storage, as a
 * serverless route's next request is. The resumed run goes straight to its tool-call step:
 * no input processor runs first, the suspended step's tools are gone, and Mastra runs the
 * call with the agent's own tools, unguarded (a client tool's call is handed over).
 *
 * So the run's skill state is checkpointed in the request context, which Mastra keeps with
 * the suspended run, every time it changes (each step, each response once core has judged
 * it, each call), and the processor hands Mastra every agent tool behind a guard that judges
 * a call against that checkpoint, as tools "loaded for the request" (Mastra's hook for
 * exactly this, `getLoadedToolsForRequestContext`, since before 1.58). In a live run the
 * step's own tools come first and these guards never run; without a checkpoint they refuse.
 */
import type { EventIds, SessionState, Shelf, ToolCall } from "@skillshelf/core";
import { runHostTool, toolErrorOutput } from "@skillshelf/core/adapter";
import { callOf, clientCallAnswer, isProviderTool, type RefusedClientCalls } from "./tools.js";

/**
 * What a checkpoint holds: the session as core left it, the ids of the last response's calls
 * (the only calls that may be resumed: a request context shared by two runs must not lend one
 * run's state to the other's call), and core's refusals of that response's client calls.
 */
interface Checkpoint {
  state: SessionState;
  calls: string[];
  /** By call id (a call without one has none here: the guard judges it again). */
  refused: Array<[id: string, name: string, refusal: unknown]>;
  ids?: EventIds;
}

export interface CheckpointInput {
  state: SessionState;
  calls: readonly string[];
  refused: RefusedClientCalls;
  ids?: EventIds | undefined;
}

/** The original of a tool these guards stand in for, so the processor guards the agent's own tool. */
const UNGUARDED = Symbol("skillshelf.unguarded");

/** The request-context key a processor keeps its run's checkpoint under. */
export function checkpointKey(processorId: string): string {
  return `${processorId}:checkpoint`;
}

interface ContextLike {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/**
 * Writes the checkpoint. A string, not the object: Mastra keeps a request-context value with
 * the run only when its probe finds it small enough to serialize, and a string always is.
 */
export function writeCheckpoint(context: ContextLike | undefined, key: string, input: CheckpointInput): void {
  if (!context) return;
  const { state, refused, ids } = input;
  const checkpoint: Checkpoint = { state, calls: [...input.calls], refused: [] };
  for (const [id, { name, refusal }] of refused)
    if (typeof id === "string") checkpoint.refused.push([id, name, refusal]);
  if (ids) checkpoint.ids = ids;
  context.set(key, JSON.stringify(checkpoint));
}

function readCheckpoint(context: ContextLike | undefined, key: string): Checkpoint | undefined {
  const raw = context?.get(key);
  if (typeof raw !== "string") return undefined;
  try {
    const checkpoint = JSON.parse(raw) as Checkpoint;
    return checkpoint &&
      typeof checkpoint.state === "object" &&
      Array.isArray(checkpoint.calls) &&
      Array.isArray(checkpoint.refused)
      ? checkpoint
      : undefined;
  } catch {
    return undefined;
  }
}

/** The agent's own tools, where Mastra hands the processor these guards in their place. */
export function unguardedTools(tools: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools))
    out[name] = (tool as { [UNGUARDED]?: unknown } | undefined)?.[UNGUARDED] ?? tool;
  return out;
}

/** A provider tool's name to the model: its own `name` (AI SDK v5), else its id after the provider's prefix. */
function modelFacingName(tool: { id: string; name?: unknown }): string {
  return typeof tool.name === "string" ? tool.name : tool.id.split(".").slice(1).join(".");
}

const NO_CHECKPOINT =
  "This call was resumed where skillshelf has no record of the run's active skills, so it was not run. Call it again.";
const NOT_THE_RUNS_CALL =
  "This call is not one of the run's last response that skillshelf judged, so it was not run. Call it again.";

/**
 * Every tool of the request behind a guard that judges a resumed call against the run's
 * checkpoint: a host tool runs only if core allows the call; a client tool's call is never
 * handed over from here (its refusal, or "call it again": the next step's guard hands it over).
 * A provider-executed tool is left as it is: its calls are the provider's, never resumed here.
 */
export function resumeGuards(
  shelf: Shelf,
  key: string,
  tools: Record<string, unknown>,
): Record<string, unknown> {
  const names = Object.keys(tools);
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (!tool || typeof tool !== "object") continue;
    const provider = isProviderTool(tool);
    // The provider runs its calls and answers them in the response: nothing of it is resumed.
    if (provider && (tool as { isProviderExecuted?: unknown }).isProviderExecuted === true) continue;
    const execute = (tool as { execute?: unknown }).execute;
    out[name] = {
      ...tool,
      // A provider tool the client runs (a local shell): a plain tool here, which Mastra keeps
      // as it is (a provider tool it would convert again), found by the name the model calls
      // it by (Mastra looks a tool up by its key, then by its id).
      ...(provider && { type: "function", id: modelFacingName(tool) }),
      [UNGUARDED]: tool,
      execute: async (input: unknown, context: unknown) => {
        const requestContext = (context as { requestContext?: ContextLike } | undefined)?.requestContext;
        const checkpoint = readCheckpoint(requestContext, key);
        if (!checkpoint) return toolErrorOutput(NO_CHECKPOINT);
        const call: ToolCall = callOf(name, input, context);
        if (call.id === undefined || !checkpoint.calls.includes(call.id))
          return toolErrorOutput(NOT_THE_RUNS_CALL);
        const session = await shelf.openSession({
          state: checkpoint.state,
          tools: names,
          ...(checkpoint.ids && { ids: checkpoint.ids }),
        });
        try {
          if (typeof execute !== "function") {
            const known = checkpoint.refused.find(([id, tool]) => id === call.id && tool === name);
            return known ? known[2] : clientCallAnswer(session, call);
          }
          return await runHostTool(session, call, () =>
            (execute as (input: unknown, context: unknown) => unknown).call(tool, input, context),
          );
        } finally {
          // The same checkpoint, with the state as this call left it.
          requestContext?.set(key, JSON.stringify({ ...checkpoint, state: session.toJSON() }));
        }
      },
    };
  }
  return out;
}
