/**
 * The user's "/name" recorded in a framework that speaks the AI SDK's language-model
 * interface (the AI SDK, Mastra): see session/command-record.ts for why. The step due to
 * record it answers without calling the provider, with one tool call, the record; the
 * framework runs it like any call and keeps call and result in the conversation; the model
 * answers the command on the next step. Every prompt the provider is sent leaves the records
 * out, so the model reads the conversation as it would in a host with state.
 */
import { commandRecordFilter, isCommandRecordId } from "../session/command-record.js";
import type { ToolCall } from "../types.js";

interface PromptMessage {
  role?: unknown;
  content?: unknown;
}

const hasRecordId = (part: unknown): boolean =>
  isCommandRecordId((part as { toolCallId?: unknown } | null)?.toolCallId);

/**
 * The prompt without the records' calls and results (the same array when it has none). Only
 * the records: a call of the model's own that reuses a record's id stays, with its result.
 */
export function withoutCommandRecords(prompt: unknown): unknown {
  if (!Array.isArray(prompt)) return prompt;
  const has = prompt.some(
    (m: PromptMessage) => Array.isArray(m?.content) && (m.content as unknown[]).some(hasRecordId),
  );
  if (!has) return prompt;
  const records = commandRecordFilter();
  const isRecord = (part: unknown): boolean => {
    const p = part as { type?: unknown; toolCallId?: unknown; toolName?: unknown } | null;
    if (p?.type === "tool-call") return records.call(p.toolCallId, p.toolName);
    if (p?.type === "tool-result") return records.result(p.toolCallId, p.toolName);
    return false;
  };
  const out: unknown[] = [];
  for (const message of prompt as PromptMessage[]) {
    if (!Array.isArray(message?.content)) {
      out.push(message);
      continue;
    }
    const content = (message.content as unknown[]).filter((part) => !isRecord(part));
    if (content.length === message.content.length) out.push(message);
    else if (content.length > 0) out.push({ ...message, content });
  }
  return out;
}

/** The interface version a model object implements ("v2" has flat usage and a string finish reason). */
function versionOf(model: object): string {
  const version = (model as { specificationVersion?: unknown }).specificationVersion;
  return typeof version === "string" ? version : "v2";
}

function finishOf(version: string) {
  return version === "v2"
    ? {
        finishReason: "tool-calls",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      }
    : {
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
      };
}

/** The record as the provider's answer: one tool call, no tokens. */
function recordPart(call: ToolCall) {
  return {
    type: "tool-call" as const,
    toolCallId: call.id!,
    toolName: call.name,
    input: JSON.stringify(call.input ?? {}),
  };
}

function recordStream(model: object, call: ToolCall): ReadableStream<unknown> {
  const finish = finishOf(versionOf(model));
  const parts: unknown[] = [
    { type: "stream-start", warnings: [] },
    recordPart(call),
    { type: "finish", ...finish },
  ];
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A `doGenerate` result that is the record (with the same response as a stream, for frameworks that read that). */
export function recordGenerateResult(model: object, call: ToolCall): unknown {
  return {
    content: [recordPart(call)],
    ...finishOf(versionOf(model)),
    warnings: [],
    stream: recordStream(model, call),
  };
}

/** A `doStream` result that is the record. */
export function recordStreamResult(model: object, call: ToolCall): unknown {
  return { stream: recordStream(model, call) };
}
