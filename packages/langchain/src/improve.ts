/**
 * The opt-in improvement hook (`skillsMiddleware({ improve })`). Core decides when the
 * analysis runs and for which skills (`improveAfterRun`); this file only writes LangChain's
 * messages as core's run transcript. What the analysis proposes waits for the user.
 */

import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import {
  type ActiveSkill,
  type FinishedRun,
  type ImproveOptions,
  improveAfterRun,
  type Shelf,
} from "@skillshelf/core";
import { assistantEntry, type RunMessage, toolEntry, userEntry } from "@skillshelf/core/adapter";

export type { ImproveOptions, RunOutcome, SkillRun } from "@skillshelf/core";

/** What your own `afterRun` hook gets. */
export interface AgentRun {
  /** The skills active at the end of the run, in activation order. */
  active: ActiveSkill[];
  /** The whole conversation, as the agent state holds it. */
  messages: BaseMessage[];
}

/** A run-end hook: `improve: true | ImproveOptions` as every skillshelf adapter reads it. */
export function analyzeAfterRun(
  shelf: Shelf,
  improve: true | ImproveOptions,
): (run: Omit<FinishedRun, "transcript"> & { messages: readonly BaseMessage[] }) => Promise<void> {
  const afterRun = improveAfterRun(shelf, improve === true ? {} : improve);
  return async ({ state, messages }) => {
    await afterRun({ state, transcript: toTranscript(messages) });
  };
}

/** The conversation as core's transcript: roles and plain text, tool calls spelled out. */
export function toTranscript(messages: readonly BaseMessage[]): RunMessage[] {
  const transcript: RunMessage[] = [];
  for (const message of messages) {
    if (HumanMessage.isInstance(message)) transcript.push(userEntry(message.text));
    else if (AIMessage.isInstance(message)) {
      const calls = (message.tool_calls ?? []).map((call) => ({ name: call.name, input: call.args }));
      transcript.push(assistantEntry(message.text, calls));
    } else if (ToolMessage.isInstance(message)) {
      transcript.push(toolEntry(message.name ?? "tool", message.text, { error: message.status === "error" }));
    }
  }
  return transcript;
}
