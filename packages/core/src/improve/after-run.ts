/**
 * When the improvement analysis runs, decided once for every adapter: after a run (one user
 * message answered) in which skills were active, each one the run used is analysed with
 * `shelf.improvements.analyze`. What the analysis proposes waits for the user; nothing is
 * written here.
 */
import type { Generate, SessionState } from "../types.js";
import type { AnalyzeResult, Improvements } from "./improvements.js";
import type { RunMessage } from "./run-transcript.js";
import type { RunOutcome } from "./schema.js";

/** What an adapter hands over when a run ends. */
export interface FinishedRun {
  /**
   * The session state after the run's last model call. Its active skills — those the model
   * ended during the run included (they stay until the next user message) — are the ones
   * analysed. Skills the run's own message ended (`turn.ended`) belong to the run before it.
   */
  state: SessionState;
  /** The conversation; only the run (from its last user message on) is analysed. */
  transcript: readonly RunMessage[];
}

/** What `outcome` and the hooks see. */
export interface SkillRun {
  /** The skills the run used, in activation order. */
  skills: string[];
  /** The run's messages, from its user message on. */
  transcript: RunMessage[];
  state: SessionState;
}

export type RunVerdict = RunOutcome | RunOutcome["status"];

export interface ImproveOptions {
  /** The analysis model; default the shelf's `generate`. */
  generate?: Generate;
  /**
   * How the run went (e.g. from the user's thumbs up/down); `undefined` skips the analysis.
   * Default: "partial" when a tool call of the run failed or was refused, else "success".
   */
  outcome?: (run: SkillRun) => RunVerdict | undefined | Promise<RunVerdict | undefined>;
  /**
   * Wait for the analyses before the run returns. Default false: they run in the background
   * so the answer is not delayed (set true where the process may stop right after a response).
   */
  wait?: boolean;
  /** An analysis that failed (no model, invalid model output, ...). Default: console.warn. */
  onError?: (error: unknown, skill: string) => void;
}

/** The skills a run used: the session's active ones at its end, finished ones included. */
export function skillsUsedInRun(state: SessionState): string[] {
  return [...new Set(state.active.map((a) => a.name))];
}

/** The run's part of a conversation: from its last user message on. */
export function runMessages(transcript: readonly RunMessage[]): RunMessage[] {
  let start = -1;
  for (let i = transcript.length - 1; i >= 0; i--) {
    if (transcript[i]?.role === "user") {
      start = i;
      break;
    }
  }
  return transcript.slice(Math.max(0, start));
}

/** Core's default outcome: a run in which a tool call failed or was refused went "partial". */
export function defaultRunOutcome(run: Pick<SkillRun, "transcript">): RunOutcome["status"] {
  return run.transcript.some((m) => m.failed) ? "partial" : "success";
}

export interface AfterRunResult {
  /** The skills an analysis was started for (none when the run used none, or `outcome` skipped it). */
  analysed: string[];
  /** Settles when every analysis has (each one's error already went to `onError`). */
  done: Promise<void>;
}

/**
 * The run-end hook every adapter calls: `improveAfterRun(shelf, options)(run)`. Resolves
 * once the analyses have started (or, with `wait`, finished); it never throws for a failed
 * analysis.
 */
export function improveAfterRun(
  shelf: { improvements: Pick<Improvements, "analyze"> },
  options: ImproveOptions = {},
): (run: FinishedRun) => Promise<AfterRunResult> {
  const onError =
    options.onError ??
    ((error: unknown, skill: string) =>
      console.warn(`[skillshelf] improvement analysis of "${skill}" failed: ${String(error)}`));
  return async (finished) => {
    const skills = skillsUsedInRun(finished.state);
    if (skills.length === 0) return { analysed: [], done: Promise.resolve() };
    const run: SkillRun = { skills, transcript: runMessages(finished.transcript), state: finished.state };
    let outcome: RunVerdict | undefined;
    try {
      outcome = await (options.outcome ?? defaultRunOutcome)(run);
    } catch (error) {
      // The host's own outcome hook failed: report it, never fail the run it follows.
      for (const skill of skills) onError(error, skill);
      return { analysed: [], done: Promise.resolve() };
    }
    if (outcome === undefined) return { analysed: [], done: Promise.resolve() };
    const transcript = run.transcript.map(({ role, content }) => ({ role, content }));
    const analyses = skills.map((skill) => {
      let started: Promise<AnalyzeResult>;
      try {
        started = shelf.improvements.analyze({
          skill,
          transcript,
          outcome: outcome as RunVerdict,
          ...(options.generate ? { generate: options.generate } : {}),
        });
      } catch (error) {
        started = Promise.reject(error);
      }
      return started.then(
        () => undefined,
        (error: unknown) => onError(error, skill),
      );
    });
    const done = Promise.all(analyses).then(() => undefined);
    if (options.wait) await done;
    return { analysed: skills, done };
  };
}
