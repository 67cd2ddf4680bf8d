/**
 * "A call in the same response as an activation is judged as if the activation had already
 * happened." Frameworks that speak the AI SDK's language-model interface (the AI SDK itself,
 * Mastra) start running a tool call as soon as it is parsed — a host call may run before an
 * activation later in the same response. So the step's model is wrapped: the response's tool
 * calls are handed to the session (`respond`) before the framework sees any of them; in a
 * stream they are held back until the model's turn is complete (text still streams).
 *
 * The same wrapper takes the tools a skill hides out of what the provider is sent, while the
 * framework keeps them registered: a model that calls one anyway (it saw it earlier in the
 * conversation) reaches the guard and reads core's structured refusal, instead of the
 * framework's "no such tool" error, and the `tool-blocked` event is recorded. A call to a tool
 * that does not exist at all is answered by the framework, in words that list every tool it
 * has, hidden ones too: in the prompt the provider is sent, that answer is core's instead
 * (unknown-tools.ts).
 *
 * A model chooses its tool-call ids, so it can give two calls of one response the same id, or
 * a call the id of one in an earlier response. Frameworks key calls and results by id (the AI
 * SDK then records both calls under one name; Mastra's memory merges them in the thread), and
 * the next step, rebuilt from those messages, loses an activation and its whitelist with it.
 * So a repeated id is made unique here, before anyone sees it, in the letters providers accept.
 */
import type { Session, ToolCall } from "../types.js";
import { recordGenerateResult, recordStreamResult, withoutCommandRecords } from "./command-records.js";
import { skillToolNotOffered, unknownTool, withUnknownToolsAnswered } from "./unknown-tools.js";

interface ToolCallPart {
  type: "tool-call";
  toolCallId?: string;
  toolName: string;
  input?: unknown;
}

function isToolCall(part: unknown): part is ToolCallPart {
  return (
    typeof part === "object" &&
    part !== null &&
    (part as { type?: unknown }).type === "tool-call" &&
    typeof (part as { toolName?: unknown }).toolName === "string"
  );
}

/**
 * A call's input as the frameworks hand it to the tool: the provider's JSON text parsed (an
 * empty text is `{}`, as the AI SDK reads it), so `respond` judges the value the tool gets,
 * the same one LangChain passes. Text that is not JSON stays the text.
 */
function inputOf(input: unknown): unknown {
  if (typeof input !== "string") return input;
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function callOf(part: ToolCallPart): ToolCall {
  const call: ToolCall = { name: part.toolName, input: inputOf(part.input) };
  if (part.toolCallId !== undefined) call.id = part.toolCallId;
  return call;
}

type AnyFunction = (...args: unknown[]) => unknown;

const NO_IDS: ReadonlySet<string> = new Set();

/**
 * The call ids a prompt's conversation already holds. A model may reuse the id of a call of
 * an earlier response, and frameworks that key a thread's calls by id (Mastra's memory) merge
 * the two: an activation's result, and the limits it pinned, replaced by a planted output.
 */
function idsIn(prompt: unknown): ReadonlySet<string> {
  if (!Array.isArray(prompt)) return NO_IDS;
  const ids = new Set<string>();
  for (const message of prompt as Array<{ content?: unknown }>) {
    if (!Array.isArray(message?.content)) continue;
    for (const part of message.content as Array<{ type?: unknown; toolCallId?: unknown }>)
      if ((part?.type === "tool-call" || part?.type === "tool-result") && typeof part.toolCallId === "string")
        ids.add(part.toolCallId);
  }
  return ids;
}

/**
 * The ids of one response, each unique, also against the calls already in the conversation
 * (`taken`): the first use of a new id keeps it, a repeat becomes `<id>_<n>` (the first such
 * name not yet used). Two allocators fed the same ids in the same order give the same names,
 * so a stream's input parts and its calls agree.
 */
function uniqueIds(taken: ReadonlySet<string> = NO_IDS): (id: string) => string {
  const used = new Set<string>(taken);
  const uses = new Map<string, number>();
  return (id) => {
    const n = (uses.get(id) ?? 0) + 1;
    uses.set(id, n);
    let unique = id;
    for (let k = n; used.has(unique); k++) unique = `${id}_${k}`;
    used.add(unique);
    return unique;
  };
}

const STREAMED_INPUT = new Set(["tool-input-start", "tool-input-delta", "tool-input-end"]);

function isStreamedInput(part: unknown): part is { type: string; id?: unknown; toolName?: unknown } {
  return STREAMED_INPUT.has((part as { type?: string } | undefined)?.type ?? "");
}

/**
 * A response's tool parts as a stream carries them, on their way to the framework: each id
 * made unique (the calls' and their streamed input's allocators are fed the same ids in the
 * same order, so they agree with the content's), and the streamed input of a call that may
 * be left out held back with its call (`holds` is asked of each input part, by its unique id,
 * until that call's input is held): `release` gives it back with the call, or nothing when
 * the call is left out. Held for the generate path's calls core has left out already, and for
 * every client call of a stream, whose verdict comes with the end of the response.
 */
function heldCalls(
  taken: ReadonlySet<string>,
  holds: (id: string, input: { type: string; toolName?: unknown }) => boolean,
) {
  const callId = uniqueIds(taken);
  const inputId = uniqueIds(taken);
  const streaming = new Map<string, string>();
  const held = new Map<string, unknown[]>();
  return {
    /** The call with its unique id. */
    call(part: ToolCallPart): ToolCallPart {
      return part.toolCallId === undefined ? part : { ...part, toolCallId: callId(part.toolCallId) };
    },
    /** A streamed input part with its call's unique id: passed on now, or undefined when held. */
    input(part: { type: string; id?: unknown; toolName?: unknown }): unknown {
      if (typeof part.id !== "string") return part;
      if (part.type === "tool-input-start") streaming.set(part.id, inputId(part.id));
      const id = streaming.get(part.id) ?? part.id;
      const renamed = { ...part, id };
      let waiting = held.get(id);
      if (!waiting && holds(id, part)) {
        waiting = [];
        held.set(id, waiting);
      }
      if (!waiting) return renamed;
      waiting.push(renamed);
      return undefined;
    },
    /** A call (as `call` named it) with its held input first; nothing when it is left out. */
    release(part: ToolCallPart, leftOut: boolean): unknown[] {
      const input = part.toolCallId !== undefined ? held.get(part.toolCallId) : undefined;
      if (part.toolCallId !== undefined) held.delete(part.toolCallId);
      return leftOut ? [] : [...(input ?? []), part];
    },
    /** Input of a call that never came: it is not the client's to see either. */
    drop(): void {
      held.clear();
    },
  };
}

/**
 * Some frameworks' model classes (Mastra's) answer `doGenerate` with the content and the
 * same response as a stream built from it, and read only the stream: its ids must be the
 * content's new ones. Fed the same ids in the same order, fresh allocators give the same
 * names; a stream call that is not the content's call at its place (so not what
 * `session.respond` judged) fails the stream instead of reaching the framework.
 */
function withStreamedCalls<R>(
  result: R,
  calls: readonly ToolCall[],
  taken: ReadonlySet<string>,
  dropped: ReadonlySet<ToolCall> = NONE_DROPPED,
): R {
  const stream = (result as { stream?: unknown } | undefined)?.stream;
  if (!(stream instanceof ReadableStream)) return result;
  const droppedIds = new Set([...dropped].flatMap((c) => (c.id !== undefined ? [c.id] : [])));
  // The calls left out are known already: their input is held, never to be released.
  const parts = heldCalls(taken, (id) => droppedIds.has(id));
  let next = 0;
  const renamed = stream.pipeThrough(
    new TransformStream<unknown, unknown>({
      transform(part, controller) {
        if (isToolCall(part)) {
          const call = parts.call(part);
          const judged = calls[next++];
          if (judged?.name !== call.toolName || judged.id !== call.toolCallId) {
            controller.error(new Error("a tool call of the response differs from the calls judged for it"));
            return;
          }
          for (const out of parts.release(call, dropped.has(judged))) controller.enqueue(out);
        } else if (isStreamedInput(part)) {
          const input = parts.input(part);
          if (input !== undefined) controller.enqueue(input);
        } else controller.enqueue(part);
      },
    }),
  );
  return { ...result, stream: renamed };
}

const NONE_DROPPED: ReadonlySet<ToolCall> = new Set();

export interface RespondingModelOptions {
  /** Tools the provider is not sent (the framework keeps them registered). */
  hide?: readonly string[];
  /**
   * Tools the framework hands to the client to run (no `execute`) on this step, unguarded.
   * A call to one that the session refuses once it has the response (its own activation
   * rules the tool out, or the call's input is refused) is reported as `tool-blocked` and
   * taken out of the response: a framework that checks no client tool's input (Mastra) has
   * no later point to stop it. Unless `answerRefused` is given.
   */
  clientTools?: readonly string[];
  /**
   * The framework can still answer a refused client call itself (an adapter's `execute` that
   * the framework reads only when it is about to hand a call over): the call stays in the
   * response and this gets core's refusal for it, so the model reads it as a host tool's.
   */
  answerRefused?: (call: ToolCall, refusal: unknown) => void;
  /**
   * The tool the framework runs a call of this name as, when its lookup finds tools under
   * more names than their keys (Mastra: a provider tool by its model-facing name, any tool by
   * its `id`): the session judges the call under that name, the tool that would run.
   * Undefined or the same name: the call's own name.
   */
  toolOf?: (name: string) => string | undefined;
  /**
   * Called once the session has judged a response (its calls, as judged), before the
   * framework runs any of them: the moment to checkpoint `session.toJSON()` for a framework
   * that may run those calls in another process (Mastra resumes an approved call without its
   * step's tools).
   */
  onJudged?: (calls: readonly ToolCall[]) => void;
}

/**
 * A Proxy over a language model whose `doGenerate`/`doStream` report each response's tool
 * calls to `session.respond` first. A Proxy, not a copy: frameworks recognise their own
 * model classes, and methods must run on the real object (private fields).
 */
export function respondingModel<M extends object>(
  model: M,
  session: Session,
  options: RespondingModelOptions = {},
): M {
  const hidden = new Set(options.hide ?? []);
  const client = new Set(options.clientTools ?? []);
  /** The response to the session; the client's calls it now refuses are left out. */
  const asRun = (call: ToolCall): ToolCall => {
    const name = options.toolOf?.(call.name);
    return name !== undefined && name !== call.name ? { ...call, name } : call;
  };
  /** Of the response's calls (as run), those of the client's tools that the session refuses, left out. */
  const refusedClientCalls = (
    calls: readonly ToolCall[],
    named: readonly ToolCall[],
  ): ReadonlySet<ToolCall> => {
    if (client.size === 0) return NONE_DROPPED;
    const dropped = new Set<ToolCall>();
    for (const [i, call] of named.entries()) {
      if (!client.has(call.name)) continue;
      const verdict = session.guard(call);
      if (verdict.allowed) continue;
      if (options.answerRefused) options.answerRefused(call, verdict.result);
      else dropped.add(calls[i]!);
    }
    return dropped;
  };
  const judge = (calls: readonly ToolCall[]): ReadonlySet<ToolCall> => {
    const named = calls.map(asRun);
    if (named.length > 0) session.respond(named);
    const dropped = refusedClientCalls(calls, named);
    options.onJudged?.(named);
    return dropped;
  };
  const strip = (args: unknown[]): unknown[] => {
    const [callOptions, ...rest] = args as [
      { tools?: Array<{ name?: string }>; prompt?: unknown } | undefined,
      ...unknown[],
    ];
    if (!callOptions) return args;
    const prompt = withUnknownToolsAnswered(withoutCommandRecords(callOptions.prompt), (name) =>
      session.isSkillTool(name) ? skillToolNotOffered(name) : unknownTool(name),
    );
    if ((hidden.size === 0 || !callOptions.tools) && prompt === callOptions.prompt) return args;
    return [
      {
        ...callOptions,
        ...(callOptions.tools && { tools: callOptions.tools.filter((t) => !(t.name && hidden.has(t.name))) }),
        ...(prompt !== callOptions.prompt && { prompt }),
      },
      ...rest,
    ];
  };
  return new Proxy(model, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "doGenerate" && typeof value === "function") {
        return async (...args: unknown[]) => {
          // (A stand-in session without records, as tests build, records nothing.)
          const record = session.commandRecord?.();
          if (record) {
            session.respond([record]);
            options.onJudged?.([record]);
            return recordGenerateResult(target, record);
          }
          const taken = idsIn((args[0] as { prompt?: unknown } | undefined)?.prompt);
          const raw = (await (value as AnyFunction).apply(target, strip(args))) as { content?: unknown[] };
          const unique = uniqueIds(taken);
          const result = Array.isArray(raw?.content)
            ? {
                ...raw,
                content: raw.content.map((part) =>
                  isToolCall(part) && part.toolCallId !== undefined
                    ? { ...part, toolCallId: unique(part.toolCallId) }
                    : part,
                ),
              }
            : raw;
          const parts = (result?.content ?? []).filter(isToolCall);
          const calls = parts.map(callOf);
          const dropped = judge(calls);
          if (dropped.size === 0) return withStreamedCalls(result, calls, taken);
          const out = parts.filter((_, i) => dropped.has(calls[i]!));
          return withStreamedCalls(
            { ...result, content: result.content!.filter((part) => !out.includes(part as ToolCallPart)) },
            calls,
            taken,
            dropped,
          );
        };
      }
      if (property === "doStream" && typeof value === "function") {
        return async (...args: unknown[]) => {
          // (A stand-in session without records, as tests build, records nothing.)
          const record = session.commandRecord?.();
          if (record) {
            session.respond([record]);
            options.onJudged?.([record]);
            return recordStreamResult(target, record);
          }
          const taken = idsIn((args[0] as { prompt?: unknown } | undefined)?.prompt);
          const result = (await (value as AnyFunction).apply(target, strip(args))) as {
            stream: ReadableStream<unknown>;
          };
          const held: ToolCallPart[] = [];
          // A client tool's streamed input waits with its call: the call may be left out.
          const parts = heldCalls(
            taken,
            (_, input) =>
              input.type === "tool-input-start" &&
              typeof input.toolName === "string" &&
              client.has(input.toolName),
          );
          // At the response's `finish` part, else when the stream ends without one; judged
          // again at the end only for calls that came after `finish` (none should).
          let released = false;
          const release = (controller: TransformStreamDefaultController<unknown>) => {
            if (released && held.length === 0) return;
            released = true;
            const response = held.splice(0);
            const calls = response.map(callOf);
            const dropped = judge(calls);
            for (const [i, part] of response.entries())
              for (const out of parts.release(part, dropped.has(calls[i]!))) controller.enqueue(out);
            parts.drop();
          };
          const stream = result.stream.pipeThrough(
            new TransformStream<unknown, unknown>({
              transform(part, controller) {
                if (isToolCall(part)) held.push(parts.call(part));
                else if (isStreamedInput(part)) {
                  const input = parts.input(part);
                  if (input !== undefined) controller.enqueue(input);
                } else {
                  if ((part as { type?: unknown })?.type === "finish") release(controller);
                  controller.enqueue(part);
                }
              },
              flush(controller) {
                release(controller);
              },
            }),
          );
          return { ...result, stream };
        };
      }
      return typeof value === "function" ? (value as AnyFunction).bind(target) : value;
    },
  });
}
