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
 * framework's "no such tool" error, and the `tool-blocked` event is recorded.
 */
import type { Session, ToolCall } from "../types.js";

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

function callOf(part: ToolCallPart): ToolCall {
  const call: ToolCall = { name: part.toolName, input: part.input };
  if (part.toolCallId !== undefined) call.id = part.toolCallId;
  return call;
}

type AnyFunction = (...args: unknown[]) => unknown;

/**
 * A Proxy over a language model whose `doGenerate`/`doStream` report each response's tool
 * calls to `session.respond` first. A Proxy, not a copy: frameworks recognise their own
 * model classes, and methods must run on the real object (private fields).
 */
export function respondingModel<M extends object>(
  model: M,
  session: Session,
  options: { hide?: readonly string[] } = {},
): M {
  const hidden = new Set(options.hide ?? []);
  const strip = (args: unknown[]): unknown[] => {
    const [callOptions, ...rest] = args as [{ tools?: Array<{ name?: string }> } | undefined, ...unknown[]];
    if (hidden.size === 0 || !callOptions?.tools) return args;
    return [
      { ...callOptions, tools: callOptions.tools.filter((t) => !(t.name && hidden.has(t.name))) },
      ...rest,
    ];
  };
  return new Proxy(model, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "doGenerate" && typeof value === "function") {
        return async (...args: unknown[]) => {
          const result = (await (value as AnyFunction).apply(target, strip(args))) as { content?: unknown[] };
          const calls = (result?.content ?? []).filter(isToolCall).map(callOf);
          if (calls.length > 0) session.respond(calls);
          return result;
        };
      }
      if (property === "doStream" && typeof value === "function") {
        return async (...args: unknown[]) => {
          const result = (await (value as AnyFunction).apply(target, strip(args))) as {
            stream: ReadableStream<unknown>;
          };
          const held: ToolCallPart[] = [];
          const release = (controller: TransformStreamDefaultController<unknown>) => {
            if (held.length === 0) return;
            session.respond(held.map(callOf));
            for (const part of held.splice(0)) controller.enqueue(part);
          };
          const stream = result.stream.pipeThrough(
            new TransformStream<unknown, unknown>({
              transform(part, controller) {
                if (isToolCall(part)) held.push(part);
                else {
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
