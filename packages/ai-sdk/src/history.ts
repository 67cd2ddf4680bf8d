/**
 * AI SDK messages → core's neutral `HistoryItem`s. This is what makes the adapter stateless:
 * a route receives the whole conversation on every request, and core rebuilds the active
 * skills from it (the user messages, and every tool call with its id and its output).
 *
 * Both shapes a host holds are accepted: `ModelMessage[]` (what `streamText` receives) and
 * `UIMessage[]` (what `useChat` posts). Nothing here knows what a skill tool is; core
 * decides which items matter, and ignores a call that has no output yet.
 */
import type { HistoryItem } from "@skillshelf/core";
import { toolErrorOutput, toolResultPairing } from "@skillshelf/core/adapter";
import type { ModelMessage, ToolResultPart, UIMessage } from "ai";

export type Messages = readonly ModelMessage[] | readonly UIMessage[];

type ToolCallItem = Extract<HistoryItem, { kind: "tool-call" }>;

/** The fields shared by static (`tool-<name>`) and dynamic tool parts of a UI message. */
interface ToolLikePart {
  type: string;
  toolName?: string;
  toolCallId?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { approved?: boolean; reason?: string };
}

export function toHistory(messages: Messages): HistoryItem[] {
  const history: HistoryItem[] = [];
  // Tool calls are recorded where they were made; results (which arrive later, in tool
  // messages) are attached to the call they answer (an id may repeat: core pairs them).
  const calls = toolResultPairing();
  // A call a user denied (the AI SDK's tool approval) is answered by the denial: the SDK
  // records it as an `execution-denied` result only once the next request starts, and a call
  // still waiting is judged as part of its response (an activation in it would apply).
  const approvals = new Map<string, { toolCallId: string; toolName?: string }>();
  const toolNames = new Map<string, string>();

  for (const message of messages) {
    if (isUIMessage(message)) {
      if (message.role === "user") history.push({ kind: "user", text: uiText(message) });
      else if (message.role === "assistant") history.push(...uiToolCalls(message));
      continue;
    }
    switch (message.role) {
      case "user":
        history.push({ kind: "user", text: modelText(message.content) });
        break;
      case "assistant":
        if (typeof message.content === "string") break;
        for (const part of message.content) {
          if (part.type === "tool-approval-request") {
            const toolName = toolNames.get(part.toolCallId);
            approvals.set(part.approvalId, { toolCallId: part.toolCallId, ...(toolName && { toolName }) });
          }
          if (part.type !== "tool-call") continue;
          toolNames.set(part.toolCallId, part.toolName);
          const item: ToolCallItem = {
            kind: "tool-call",
            id: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          };
          calls.call(item);
          history.push(item);
        }
        break;
      case "tool":
        for (const part of message.content) {
          if (part.type === "tool-approval-response" && !part.approved) {
            const request = approvals.get(part.approvalId);
            if (request)
              calls.result(
                request.toolCallId,
                request.toolName,
                toolErrorOutput(part.reason ?? "execution denied"),
              );
          }
          if (part.type !== "tool-result") continue;
          calls.result(part.toolCallId, part.toolName, resultValue(part.output));
        }
        break;
    }
  }
  return history;
}

/** Text of the last user message: what stage-1 matching and "/name args" look at. */
export function lastUserText(messages: Messages): string | undefined {
  return toHistory(messages).findLast((item) => item.kind === "user")?.text;
}

function isUIMessage(message: ModelMessage | UIMessage): message is UIMessage {
  return "parts" in message && Array.isArray(message.parts);
}

function uiToolCalls(message: UIMessage): ToolCallItem[] {
  const items: ToolCallItem[] = [];
  for (const part of message.parts as readonly ToolLikePart[]) {
    const toolName =
      part.type === "dynamic-tool"
        ? part.toolName
        : part.type.startsWith("tool-")
          ? part.type.slice(5)
          : undefined;
    if (toolName === undefined || part.state === undefined || part.state === "input-streaming") continue;
    const item: ToolCallItem = { kind: "tool-call", toolName, input: part.input };
    if (part.toolCallId !== undefined) item.id = part.toolCallId;
    if (part.state === "output-available") item.output = part.output;
    else if (part.state === "output-error") item.output = toolErrorOutput(part.errorText ?? "tool error");
    else if (part.state === "output-denied") item.output = toolErrorOutput("execution denied");
    else if (part.state === "approval-responded" && part.approval?.approved === false)
      item.output = toolErrorOutput(part.approval.reason ?? "execution denied");
    items.push(item);
  }
  return items;
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
      // Multi-part content: a successful result, whatever its parts.
      return "value" in output ? output.value : null;
  }
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
