import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import {
  decide,
  type OfflineMemory,
  type OfflineMessage,
  type OfflineReply,
  type OfflineRequest,
} from "./policy.js";

/**
 * The offline model as an AI SDK `LanguageModelV4`, so the AI SDK and Mastra (which takes AI
 * SDK models) run it exactly like a provider's model: same prompt, same tool list, same
 * streaming protocol.
 */
export function createOfflineLanguageModel(
  memory: OfflineMemory = { seenTools: new Set() },
): LanguageModelV4 {
  let calls = 0;
  const reply = (options: LanguageModelV4CallOptions) => decide(toRequest(options), memory);
  const content = (r: OfflineReply): LanguageModelV4Content[] =>
    "text" in r
      ? [{ type: "text", text: r.text }]
      : r.toolCalls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: `call_${++calls}`,
          toolName: c.name,
          input: JSON.stringify(c.args),
        }));
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  const finish = (r: OfflineReply) =>
    ({ unified: "text" in r ? "stop" : "tool-calls", raw: undefined }) as const;

  return {
    specificationVersion: "v4",
    provider: "skillshelf-demo",
    modelId: "offline-rules",
    supportedUrls: {},
    async doGenerate(options) {
      const r = reply(options);
      return { content: content(r), finishReason: finish(r), usage, warnings: [] };
    },
    async doStream(options) {
      const r = reply(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const c of content(r)) {
        if (c.type === "text") {
          parts.push(
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: c.text },
            { type: "text-end", id: "t" },
          );
        } else if (c.type === "tool-call") {
          parts.push(c);
        }
      }
      parts.push({ type: "finish", finishReason: finish(r), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        }),
      };
    },
  };
}

function toRequest(options: LanguageModelV4CallOptions): OfflineRequest {
  const tools = (options.tools ?? []).flatMap((t) =>
    t.type === "function" ? [{ name: t.name, description: t.description ?? "" }] : [],
  );
  return { system: systemText(options.prompt), messages: toMessages(options.prompt), tools };
}

function systemText(prompt: LanguageModelV4Prompt): string {
  return prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
}

function toMessages(prompt: LanguageModelV4Prompt): OfflineMessage[] {
  const out: OfflineMessage[] = [];
  for (const m of prompt) {
    if (m.role === "user") {
      out.push({
        role: "user",
        text: m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""),
      });
    } else if (m.role === "assistant") {
      const text = m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
      const toolCalls = m.content.flatMap((p) =>
        p.type === "tool-call"
          ? [
              {
                id: p.toolCallId,
                name: p.toolName,
                args: (typeof p.input === "string" ? JSON.parse(p.input) : p.input) as Record<
                  string,
                  unknown
                >,
              },
            ]
          : [],
      );
      out.push({ role: "assistant", text, toolCalls });
    } else if (m.role === "tool") {
      for (const p of m.content) {
        if (p.type !== "tool-result") continue;
        const o = p.output;
        const output =
          o.type === "text" || o.type === "error-text"
            ? o.value
            : o.type === "json" || o.type === "error-json"
              ? JSON.stringify(o.value)
              : o.type;
        out.push({ role: "tool", id: p.toolCallId, name: p.toolName, output });
      }
    }
  }
  return out;
}
