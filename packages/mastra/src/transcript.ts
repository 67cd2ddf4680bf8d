/**
 * Mastra's stored messages as core's run transcript (what the improvement analysis reads).
 * Core decides which part is the run and whether a call failed; this only spells out text,
 * tool calls and their results.
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import { assistantEntry, type RunMessage, toolEntry, userEntry } from "@skillshelf/core/adapter";

export function toTranscript(messages: readonly MastraDBMessage[]): RunMessage[] {
  const transcript: RunMessage[] = [];
  for (const message of messages) {
    const parts = message.content.parts ?? [];
    const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    if (message.role === "user") {
      const content = typeof message.content.content === "string" ? message.content.content : "";
      transcript.push(userEntry(text || content));
      continue;
    }
    if (message.role !== "assistant") continue;
    const calls = [];
    const results: RunMessage[] = [];
    for (const part of parts) {
      if (part.type !== "tool-invocation") continue;
      const call = part.toolInvocation;
      calls.push({ name: call.toolName, input: call.args });
      if (call.state === "result") {
        results.push(toolEntry(call.toolName, call.result, { error: call.isError === true }));
      } else if (call.state === "output-error" || call.state === "output-denied") {
        results.push(toolEntry(call.toolName, call.errorText ?? call.state, { error: true }));
      }
    }
    transcript.push(assistantEntry(text, calls), ...results);
  }
  return transcript;
}
