/**
 * AI SDK messages as core's run transcript (what the improvement analysis reads). Core
 * decides which part of it is the run and whether a call failed; this only spells out text,
 * tool calls and tool results.
 */
import { assistantEntry, type RunMessage, toolEntry, userEntry } from "@skillshelf/core/adapter";
import type { ModelMessage, ToolResultPart } from "ai";

export function toTranscript(messages: readonly ModelMessage[]): RunMessage[] {
  const transcript: RunMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "user":
        transcript.push(userEntry(textOf(message.content)));
        break;
      case "assistant": {
        const calls =
          typeof message.content === "string"
            ? []
            : message.content.flatMap((part) =>
                part.type === "tool-call" ? [{ name: part.toolName, input: part.input }] : [],
              );
        transcript.push(assistantEntry(textOf(message.content), calls));
        break;
      }
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result") continue;
          const { value, error } = resultOf(part.output);
          transcript.push(toolEntry(part.toolName, value, { error }));
        }
        break;
    }
  }
  return transcript;
}

function textOf(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content.trim();
  return content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
}

function resultOf(output: ToolResultPart["output"]): { value: unknown; error: boolean } {
  switch (output.type) {
    case "json":
    case "text":
      return { value: output.value, error: false };
    case "error-json":
    case "error-text":
      return { value: output.value, error: true };
    case "execution-denied":
      return { value: output.reason ?? "execution denied", error: true };
    default:
      return { value: "value" in output ? output.value : null, error: false };
  }
}
