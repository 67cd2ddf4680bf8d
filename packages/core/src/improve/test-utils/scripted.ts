/** Scripted `generate` functions for the improvement-loop tests: each answers from a script and records what it was asked. */
import type { Generate } from "../../types.js";

export interface ScriptedGenerate extends Generate {
  calls: Array<{ system: string; prompt: string }>;
}

/** Answers with `answers` in turn (a function gets the prompt); throws when the script runs out. */
export function scripted(
  ...answers: Array<string | ((input: { system: string; prompt: string }) => string)>
): ScriptedGenerate {
  const calls: ScriptedGenerate["calls"] = [];
  const generate = (async (input: { system: string; prompt: string }) => {
    calls.push({ system: input.system, prompt: input.prompt });
    const answer = answers[calls.length - 1];
    if (answer === undefined) throw new Error(`scripted generate: no answer for call ${calls.length}`);
    return typeof answer === "function" ? answer(input) : answer;
  }) as ScriptedGenerate;
  generate.calls = calls;
  return generate;
}

export interface ProposalJson {
  title?: string;
  change?: string;
  target?: string;
  rationale?: string;
  evidence?: string[];
  edits?: Array<{ before: string; after: string }>;
  changes_description?: boolean;
}

/** A well-formed proposal, with overrides. */
export function proposal(overrides: ProposalJson = {}): ProposalJson {
  return {
    title: "Identify the audience along with the communication type",
    change: "change",
    target: "step",
    rationale: "The agent wrote for the wrong audience; asking first avoids a rewrite.",
    evidence: ["this was meant for the leadership team, not engineers"],
    edits: [
      {
        before: "1. **Identify the communication type** from the request",
        after:
          "1. **Identify the communication type and its audience** from the request (ask if it does not say)",
      },
    ],
    changes_description: false,
    ...overrides,
  };
}

export const answer = (...proposals: ProposalJson[]) => JSON.stringify({ proposals });

export const TRANSCRIPT = [
  { role: "user", content: "Write the weekly status update for the payments project." },
  {
    role: "assistant",
    content: "Here is a detailed technical update covering the database migration and API latency.",
  },
  { role: "user", content: "Hmm, this was meant for the leadership team, not engineers. Too much detail." },
  {
    role: "assistant",
    content: "Understood. Here is a shorter update focused on progress, plans and problems.",
  },
];
