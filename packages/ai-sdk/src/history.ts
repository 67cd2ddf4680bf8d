/**
 * AI SDK messages → core's neutral `HistoryItem`s. This is what makes the adapter stateless:
 * a route receives the whole conversation on every request, and core rebuilds the active
 * skills from the activation calls (and explicit "/name" messages) found in it.
 *
 * Both shapes a host holds are accepted: `ModelMessage[]` (what `streamText` receives) and
 * `UIMessage[]` (what `useChat` posts). Nothing here knows what an activation tool is; core
 * decides which items matter.
 */
import { type HistoryItem, latestUserMessage, toolErrorOutput } from "@skillshelf/core";
import type { ModelMessage, ToolResultPart, UIMessage } from "ai";

export type Messages = readonly ModelMessage[] | readonly UIMessage[];

/** The fields shared by static (`tool-<name>`) and dynamic tool parts of a UI message. */
interface ToolLikePart {
  type: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}

export interface ToHistoryOptions {
  /**
   * The last user message's turn was already planned (the host is re-deriving the state
   * mid-turn, e.g. for a tool call), so core replays it instead of planning it again.
   */
  planned?: boolean;
}

export function toHistory(messages: Messages, options: ToHistoryOptions = {}): HistoryItem[] {
  const history: HistoryItem[] = [];
  // Tool calls are emitted where they were made; results (which arrive later, in tool
  // messages or in the same UI part) are attached by id.
  const calls = new Map<string, Extract<HistoryItem, { kind: "tool-call" }>>();

  for (const message of messages) {
    if (isUIMessage(message)) {
      if (message.role === "user") {
        history.push({ kind: "user", text: uiText(message) });
        continue;
      }
      if (message.role !== "assistant") continue;
      for (const part of message.parts as readonly ToolLikePart[]) {
        const toolName =
          part.type === "dynamic-tool"
            ? part.toolName
            : part.type.startsWith("tool-")
              ? part.type.slice(5)
              : undefined;
        if (toolName === undefined || part.state === undefined || part.state === "input-streaming") continue;
        const item: HistoryItem = { kind: "tool-call", toolName, input: part.input };
        if (part.state === "output-available") item.output = part.output;
        else if (part.state === "output-error") item.output = toolErrorOutput(part.errorText ?? "tool error");
        history.push(item);
      }
      continue;
    }

    switch (message.role) {
      case "user":
        history.push({ kind: "user", text: modelText(message.content) });
        break;
      case "assistant":
        if (typeof message.content === "string") break;
        for (const part of message.content) {
          if (part.type !== "tool-call") continue;
          const item = { kind: "tool-call" as const, toolName: part.toolName, input: part.input };
          calls.set(part.toolCallId, item);
          history.push(item);
        }
        break;
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result") continue;
          const call = calls.get(part.toolCallId);
          if (call) call.output = resultValue(part.output);
        }
        break;
    }
  }
  const last = history.at(-1);
  if (options.planned && last?.kind === "user") last.planned = true;
  return history;
}

/** Text of the last user message: what stage-1 matching and "/name args" look at (core's rule). */
export function lastUserText(messages: Messages): string | undefined {
  return latestUserMessage(toHistory(messages))?.text;
}

function isUIMessage(message: ModelMessage | UIMessage): message is UIMessage {
  return "parts" in message && Array.isArray(message.parts);
}

function uiText(message: UIMessage): string {
  return message.parts
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
}

function modelText(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content.trim();
  return content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
}

/** The value a tool returned, as the tool produced it (JSON results round-trip as JSON). */
function resultValue(output: ToolResultPart["output"]): unknown {
  switch (output.type) {
    case "json":
      return output.value;
    case "text":
      return parseJsonOr(output.value);
    case "error-json":
      return toolErrorOutput(JSON.stringify(output.value));
    case "error-text":
      return toolErrorOutput(output.value);
    case "execution-denied":
      return toolErrorOutput(output.reason ?? "execution denied");
    default:
      return undefined;
  }
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
