/**
 * The opt-in improvement hook: after a run in which skills were active, ask core's
 * improvement loop (`shelf.improvements.analyze`) to review how each one was used. What it
 * proposes waits for the user; nothing is written here.
 */

import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { Generate, Shelf } from "@skillshelf/core";

/** How a run went, in the terms of core's improvement loop. */
export type RunStatus = "success" | "failure" | "partial";
export type RunOutcome = RunStatus | { status: RunStatus; feedback?: string };

/** What a run-end hook gets. */
export interface SkillRun {
  /** The skills active at the end of the run, in activation order. */
  active: Array<{ name: string; by: "model" | "user" | "code"; args?: string; at: string }>;
  /** The whole conversation, as the agent state holds it. */
  messages: BaseMessage[];
}

export interface ImproveOptions {
  /** The analysis model; default the shelf's `generate`. `generateFrom(chatModel)` makes one. */
  generate?: Generate;
  /**
   * How the run went (e.g. from the user's thumbs up/down); `undefined` skips the analysis.
   * Default: "partial" when a tool call of this turn failed or was refused, else "success".
   */
  outcome?: (run: SkillRun) => RunOutcome | undefined | Promise<RunOutcome | undefined>;
  /**
   * Wait for the analysis before the agent returns. Default false: it runs in the background
   * so the answer is not delayed (set true where the process may stop right after a response).
   */
  wait?: boolean;
  /** An analysis that failed (no model, invalid model output, ...). Default: console.warn. */
  onError?: (error: unknown, skill: string) => void;
}

/** A run-end hook that queues an improvement analysis for each skill used in the run. */
export function analyzeAfterRun(
  shelf: Shelf,
  options: ImproveOptions = {},
): (run: SkillRun) => Promise<void> {
  const onError =
    options.onError ??
    ((error: unknown, skill: string) =>
      console.warn(`[skillshelf] improvement analysis of "${skill}" failed: ${String(error)}`));
  return async (run) => {
    const outcome = await (options.outcome ?? defaultOutcome)(run);
    if (outcome === undefined) return;
    const transcript = toTranscript(currentTurn(run.messages));
    const analyses = run.active.map(({ name }) =>
      shelf.improvements
        .analyze({
          skill: name,
          transcript,
          outcome,
          ...(options.generate ? { generate: options.generate } : {}),
        })
        .then(
          () => undefined,
          (error: unknown) => onError(error, name),
        ),
    );
    if (options.wait) await Promise.all(analyses);
  };
}

/** The messages of the latest turn: from the last user message on. */
function currentTurn(messages: readonly BaseMessage[]): BaseMessage[] {
  const start = messages.findLastIndex((m) => HumanMessage.isInstance(m));
  return messages.slice(Math.max(0, start));
}

function defaultOutcome(run: SkillRun): RunOutcome {
  const failed = currentTurn(run.messages).some((m) => ToolMessage.isInstance(m) && m.status === "error");
  return failed ? "partial" : "success";
}

/** The conversation as core's transcript: roles and plain text, tool calls spelled out. */
export function toTranscript(messages: readonly BaseMessage[]): Array<{ role: string; content: string }> {
  const transcript: Array<{ role: string; content: string }> = [];
  for (const message of messages) {
    if (HumanMessage.isInstance(message)) transcript.push({ role: "user", content: message.text });
    else if (AIMessage.isInstance(message)) {
      const calls = (message.tool_calls ?? []).map(
        (call) => `[calls ${call.name} ${JSON.stringify(call.args)}]`,
      );
      transcript.push({ role: "assistant", content: [message.text, ...calls].filter(Boolean).join("\n") });
    } else if (ToolMessage.isInstance(message)) {
      const status = message.status === "error" ? " (error)" : "";
      transcript.push({ role: "tool", content: `[${message.name ?? "tool"}${status}] ${message.text}` });
    }
  }
  return transcript;
}
