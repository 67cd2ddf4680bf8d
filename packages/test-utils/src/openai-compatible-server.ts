/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for adapter tests that
 * must go through a real provider package (`@ai-sdk/openai-compatible`, `@langchain/openai`)
 * without any network. The test scripts what "the model" answers on each call (text and/or
 * tool calls) and afterwards inspects every request the provider sent.
 *
 * ```ts
 * const server = await startScriptedOpenAIServer({
 *   script: [
 *     reply.toolCall("activate_skill", { name: "pdf" }),
 *     reply.text("Done."),
 *   ],
 * });
 * const provider = createOpenAICompatible({ name: "scripted", baseURL: server.url });
 * // ... run the agent against provider("any-model") ...
 * expect(server.requests[1].body.tools.map((t) => t.function.name)).toEqual([...]);
 * await server.close();
 * ```
 *
 * Both `stream: false` (one JSON body) and `stream: true` (SSE chunks ending in `[DONE]`,
 * tool-call arguments split over several deltas the way real servers do) are served.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// ─── What the provider sends ───────────────────────────────────────────────────

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  /** A string, or content parts (`{ type: "text", text }`, ...), or null on tool-call-only turns. */
  content?: string | Array<{ type: string; text?: string; [key: string]: unknown }> | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** The chat-completions request body (only the fields tests usually look at are typed). */
export interface ChatCompletionRequestBody {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** One request the server received, recorded in arrival order. */
export interface RecordedRequest {
  /** 0-based index among chat-completion requests (the `turn` the script was called with). */
  turn: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: ChatCompletionRequestBody;
  /** Convenience: the tool names offered on this call, in order. */
  toolNames: string[];
  /** Convenience: all system/developer message texts of this call, in order. */
  systemTexts: string[];
}

// ─── What the script answers ───────────────────────────────────────────────────

export interface ScriptedToolCall {
  name: string;
  /** An object (JSON-encoded for you) or a raw JSON string (sent as is, even if invalid). */
  arguments?: Record<string, unknown> | string;
  /** Default: `call_<turn>_<index>`. */
  id?: string;
}

export interface ScriptedReply {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: "tool_calls" when there are tool calls, else "stop". */
  finishReason?: "stop" | "tool_calls" | "length" | "content_filter";
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer with this HTTP error instead (e.g. `{ status: 429, message: "slow down" }`). */
  error?: { status: number; message: string };
}

/** A function of the request (and its 0-based turn), or a fixed list consumed in order. */
export type Script =
  | ((request: RecordedRequest, turn: number) => ScriptedReply | string | Promise<ScriptedReply | string>)
  | Array<ScriptedReply | string>;

/** Small constructors that keep scripts readable. */
export const reply = {
  text: (content: string): ScriptedReply => ({ content }),
  toolCall: (name: string, args: Record<string, unknown> | string = {}, id?: string): ScriptedReply => ({
    toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }],
  }),
  toolCalls: (...calls: ScriptedToolCall[]): ScriptedReply => ({ toolCalls: calls }),
};

export interface ScriptedOpenAIServerOptions {
  script: Script;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Characters per streamed content delta (default 8), so streaming code sees real fragments. */
  chunkSize?: number;
}

export interface ScriptedOpenAIServer {
  /** Base URL ending in `/v1`, ready for `baseURL` / `configuration.baseURL`. */
  url: string;
  /** Every chat-completion request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

// ─── The server ────────────────────────────────────────────────────────────────

export async function startScriptedOpenAIServer(
  options: ScriptedOpenAIServerOptions,
): Promise<ScriptedOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const chunkSize = Math.max(1, options.chunkSize ?? 8);

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the script must fail the test loudly, not hang the provider.
      sendError(res, 500, `scripted server: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && path.endsWith("/models")) {
      sendJson(res, 200, { object: "list", data: [{ id: "scripted", object: "model", owned_by: "test" }] });
      return;
    }
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      sendError(res, 404, `scripted server only serves POST /v1/chat/completions, got ${req.method} ${path}`);
      return;
    }
    const raw = await readBody(req);
    let body: ChatCompletionRequestBody;
    try {
      body = JSON.parse(raw) as ChatCompletionRequestBody;
    } catch {
      sendError(res, 400, "request body is not JSON");
      return;
    }
    const turn = requests.length;
    const recorded: RecordedRequest = {
      turn,
      method: req.method,
      path,
      headers: req.headers,
      body,
      toolNames: (body.tools ?? []).map((t) => t.function.name),
      systemTexts: body.messages
        .filter((m) => m.role === "system" || m.role === "developer")
        .map((m) => messageText(m)),
    };
    requests.push(recorded);

    const scripted = await nextReply(options.script, recorded, turn);
    const answer: ScriptedReply = typeof scripted === "string" ? { content: scripted } : scripted;
    if (answer.error) {
      sendError(res, answer.error.status, answer.error.message);
      return;
    }
    const toolCalls: ChatToolCall[] = (answer.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${turn}_${index}`,
      type: "function",
      function: {
        name: call.name,
        arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
      },
    }));
    const finishReason = answer.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
    const usage = answer.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    const id = `chatcmpl-scripted-${turn}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model;

    if (!body.stream) {
      sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: answer.content ?? null,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finishReason,
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
      return;
    }

    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      sse(res, {
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    chunk({ role: "assistant", content: "" });
    const content = answer.content ?? "";
    for (let i = 0; i < content.length; i += chunkSize) chunk({ content: content.slice(i, i + chunkSize) });
    toolCalls.forEach((call, index) => {
      // First delta names the call; the arguments follow in two halves, as real servers split them.
      chunk({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
        ],
      });
      const args = call.function.arguments;
      const half = Math.ceil(args.length / 2);
      for (const part of [args.slice(0, half), args.slice(half)]) {
        if (part) chunk({ tool_calls: [{ index, function: { arguments: part } }] });
      }
    });
    chunk({}, finishReason);
    if (body.stream_options?.include_usage) {
      sse(res, {
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }
    res.write("data: [DONE]\n\n");
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function nextReply(
  script: Script,
  request: RecordedRequest,
  turn: number,
): Promise<ScriptedReply | string> {
  if (typeof script === "function") return script(request, turn);
  const next = script[turn];
  if (next === undefined) {
    throw new Error(`no scripted reply for turn ${turn} (the script has ${script.length})`);
  }
  return next;
}

function messageText(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) return message.content.map((part) => part.text ?? "").join("");
  return "";
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sse(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function sendJson(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(data));
}

function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, { error: { message, type: "scripted_error", code: status } });
}
