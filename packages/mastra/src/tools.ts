/**
 * The two tool transformations the processor applies on every step: core's skill-tool
 * ToolSpecs become Mastra tools answered by the run's session, and the host's tools run
 * through core's guard. Both use the one session of the run, which `respondingModel` has
 * already shown the whole response to, so call order and Mastra's concurrency change nothing.
 */
import { createTool } from "@mastra/core/tools";
import type { Fork, Session, ToolCall, ToolSpec } from "@skillshelf/core";
import {
  listenForWorkflowProgress,
  type OnDiagnostic,
  runHostTool,
  runSkillTool,
  toolErrorOutput,
} from "@skillshelf/core/adapter";

/** The call's id as Mastra passes it to `execute` (converted tools and createTool tools differ). */
function callId(context: unknown): string | undefined {
  const record = context as { toolCallId?: unknown; agent?: { toolCallId?: unknown } } | undefined;
  const id = record?.toolCallId ?? record?.agent?.toolCallId;
  return typeof id === "string" ? id : undefined;
}

export function callOf(name: string, input: unknown, context: unknown): ToolCall {
  const call: ToolCall = { name, input };
  const id = callId(context);
  if (id !== undefined) call.id = id;
  return call;
}

/**
 * The call's writer in `agent.stream` (its chunks reach the stream as `tool-output` parts of
 * this call). Writing is asynchronous: a stream that fails is the stream's, never the run's.
 */
function toolWriter(context: unknown): ((event: unknown) => void) | undefined {
  const writer = (context as { writer?: { write?: unknown } } | undefined)?.writer;
  if (typeof writer?.write !== "function") return undefined;
  const write = writer.write as (data: unknown) => unknown;
  return (event) => {
    const written = write.call(writer, event);
    if (written instanceof Promise) written.catch(() => undefined);
  };
}

/**
 * Core's JSON Schema as a Standard Schema that accepts every input: the model is shown the
 * schema as it is, and core checks the call itself. Mastra's own check would answer a typed
 * skill's wrong arguments with its own error text (and without the schema's formats) before
 * core could give the structured INVALID_ARGUMENTS every adapter gives.
 */
function checkedByCore(schema: Record<string, unknown>) {
  return {
    "~standard": {
      version: 1,
      vendor: "skillshelf",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/**
 * A Mastra tool for one of core's ToolSpecs (skill_<name>, activate_skill, end_skill). Its
 * input schema is core's JSON Schema, checked by core; its result is core's structured
 * result, which stays in the thread so the next turn's session can be rebuilt.
 */
export interface SkillToolOptions {
  /** Runs a `context: fork` skill's sub-agent; without it such a skill reads FORK_UNAVAILABLE. */
  fork?: (fork: Fork, abortSignal?: AbortSignal) => Promise<string>;
  onDiagnostic?: OnDiagnostic;
}

export function skillTool(
  spec: ToolSpec,
  session: Session,
  onChange: () => void = () => undefined,
  options: SkillToolOptions = {},
) {
  const { fork, onDiagnostic } = options;
  return createTool({
    id: spec.name,
    description: spec.description,
    // biome-ignore lint/suspicious/noExplicitAny: a Standard Schema over core's plain JSON Schema.
    inputSchema: checkedByCore(spec.inputSchema) as any,
    execute: async (input: unknown, context: unknown) => {
      const abortSignal = (context as { abortSignal?: AbortSignal } | undefined)?.abortSignal;
      const run = () =>
        runSkillTool(session, callOf(spec.name, input, context), {
          ...(fork && { fork: (f: Fork) => fork(f, abortSignal) }),
          ...(onDiagnostic && { onDiagnostic }),
        });
      // A workflow run's steps stream as this call's `tool-output` chunks (Mastra's tool writer).
      const writer = toolWriter(context);
      const result = writer ? listenForWorkflowProgress(writer, run).value : run();
      onChange();
      return result;
    },
  });
}

/** The shape Mastra hands to input processors: converted tools with `execute(input, context)`. */
type StepTool = { execute?: (input: unknown, context: unknown) => unknown };

/**
 * Each tool's `execute` runs through core's guard at the moment it would run: a refused call
 * never reaches the tool and returns core's structured refusal; an allowed one runs inside
 * the session, so a sub-agent it starts is bounded by the conversation's active skills.
 */
export function guardTools(
  tools: Record<string, unknown>,
  session: Session,
  onRun: () => void = () => undefined,
): Record<string, unknown> {
  const guarded: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as StepTool | undefined)?.execute;
    if (typeof execute !== "function") {
      guarded[name] = tool;
      continue;
    }
    guarded[name] = {
      ...(tool as object),
      execute: async (input: unknown, context: unknown) => {
        try {
          return await runHostTool(session, callOf(name, input, context), () =>
            execute.call(tool, input, context),
          );
        } finally {
          onRun();
        }
      },
    };
  }
  return guarded;
}

/** A client tool's call answered here, never run: core's refusal (and `tool-blocked`), else "call it again". */
export function clientCallAnswer(session: Session, call: ToolCall): unknown {
  const verdict = session.guard(call);
  return verdict.allowed ? toolErrorOutput(CLIENT_TOOL_NOT_RUN) : verdict.result;
}

/** A client tool's `execute` that never runs it (`clientCallAnswer`). */
function refusing(session: Session, name: string) {
  return async (input: unknown, context: unknown) => clientCallAnswer(session, callOf(name, input, context));
}

/**
 * Core's refusals of a response's client calls (`respondingModel`'s `answerRefused`), by call
 * id; a call without one under a symbol of its own, a key no id can take (a model picks its
 * ids, so a string key such as `\u0000<name>` is one it can send, and take the refusal for its
 * own call: the id-less call it was filed for would then be handed over). Its tool still refuses.
 */
export type RefusedClientCalls = Map<string | symbol, { name: string; refusal: unknown }>;

/**
 * A tool without `execute` is one the host's client runs: Mastra hands its calls to the
 * caller instead of running them, so no `execute` of ours can guard them. Each of the
 * client's tools (`names`) gets an `execute` getter instead, which Mastra reads only when it
 * is about to hand a call over (its tool-call step: no `execute`, the call is the client's).
 * By then the response has reached `session.respond`, and core has judged each of its client
 * calls (`refused`): a tool the step's plan rules out, one the same response's activation
 * rules out, a call refused for its input. A tool with a refused call, or one core does not
 * allow now, has an `execute`, which answers with core's refusal (as the AI SDK's input check
 * does); any other still has none, and its calls are handed over.
 *
 * Per tool, not per call: Mastra reads `execute` by the tool's name alone, with no call id
 * (`tool.execute` before it runs a call; its eager-execution and tracing checks read it too),
 * and a call it runs is never handed over. A refused call's refusal stays for the whole step,
 * so it is never handed over, and no other call of the same tool in that response is either:
 * it cannot be told from the refused one, is judged again and reads CLIENT_TOOL_NOT_RUN
 * (fail closed; the model may call again).
 * The one hook that sees the id first (`onInputAvailable`) would tie a later read of the
 * getter to a call only by the order Mastra's concurrent tool calls (10 at a time by default)
 * resume in: a refused call read while an allowed one's id is current would be handed over.
 */
export function refusedClientTools(
  tools: Record<string, unknown>,
  session: Session,
  names: readonly string[],
  refused: RefusedClientCalls,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const tool = tools[name];
    if (!tool || typeof (tool as StepTool).execute === "function") continue;
    const fallback = refusing(session, name);
    const answer = async (input: unknown, context: unknown) => {
      const id = callId(context);
      const known = id !== undefined ? refused.get(id) : undefined;
      // Kept until the step ends (the processor clears the map): a refusal taken off when its
      // call was answered let the next call of the tool be handed over, and Mastra 1.58 then
      // handed the refused call to the client too, with no result (the floor lane).
      if (known && known.name === name) return known.refusal;
      return fallback(input, context);
    };
    const refuses = () => {
      for (const call of refused.values()) if (call.name === name) return true;
      return session.allowedTools([name]).length === 0;
    };
    const late = Object.create(Object.getPrototypeOf(tool) as object | null) as Record<string, unknown>;
    Object.defineProperties(late, Object.getOwnPropertyDescriptors(tool));
    // Mastra finds a call's tool by its key, else by its `id`: a call by an id that is not the
    // key reached this tool under a name core judged as none of the client's tools (nothing
    // refused, so handed over). Under its key only, such a call reads Mastra's unknown tool.
    // A provider tool's id is the provider's (`openai.local_shell`): it is what the provider is
    // sent, so it stays, and its calls by other names are judged as it (`toolKeyOf`).
    if (typeof late.id === "string" && late.id !== name && !isProviderTool(late))
      Object.defineProperty(late, "id", {
        configurable: true,
        enumerable: true,
        writable: true,
        value: name,
      });
    Object.defineProperty(late, "execute", {
      configurable: true,
      enumerable: true,
      get: () => (refuses() ? answer : undefined),
    });
    out[name] = late;
  }
  return out;
}

/** A provider-defined tool (AI SDK v5 `provider-defined`, v6+ `provider`), as Mastra tells them. */
export function isProviderTool(tool: unknown): tool is { id: string; name?: unknown } {
  const t = tool as { type?: unknown; id?: unknown } | null | undefined;
  return (t?.type === "provider" || t?.type === "provider-defined") && typeof t.id === "string";
}

/**
 * The name the provider is sent a tool under: a provider tool's own `name` when it has one
 * (AI SDK v5's carry it: `{ search: openai.tools.webSearch() }` is sent as `web_search`),
 * else its key. A tool a skill hides must be taken out under this name.
 */
export function sentName(tools: Record<string, unknown>, key: string): string {
  const tool = tools[key];
  return isProviderTool(tool) && typeof tool.name === "string" ? tool.name : key;
}

/**
 * The key of the tool Mastra runs a call of `name` as, in Mastra's own order: the tool under
 * that key, else a provider tool by its model-facing name (its id's part after the first dot,
 * or its `name`), else a tool by its `id`. Undefined: Mastra finds none.
 */
export function toolKeyOf(tools: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(tools, name) && tools[name]) return name;
  const entries = Object.entries(tools);
  for (const [key, tool] of entries)
    if (isProviderTool(tool) && (tool.id.split(".").slice(1).join(".") === name || tool.name === name))
      return key;
  for (const [key, tool] of entries)
    if (tool && typeof tool === "object" && (tool as { id?: unknown }).id === name) return key;
  return undefined;
}

/** The tools among `names` that the client runs (no `execute`): Mastra hands their calls over. */
export function clientToolNames(tools: Record<string, unknown>, names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const name of names) {
    const tool = tools[name];
    if (tool && typeof (tool as StepTool).execute !== "function") out.push(name);
  }
  return out;
}

const CLIENT_TOOL_NOT_RUN =
  "This tool runs in the client, and the call was not handed over on this step. Call it again.";
