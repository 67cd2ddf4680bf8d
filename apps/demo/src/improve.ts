/**
 * The improvement step, entirely through core's API: analyse the run → a pending proposal,
 * shown as a card → the user's decision → accept (a managed write: version bumped, the old
 * version kept) or reject (the reason kept, so it is not proposed again) → the diff → the
 * next run, which loads the accepted version from the sandbox's shelf → and, in the story, a
 * rollback to show that nothing is ever lost.
 */
import {
  type Generate,
  ImproveError,
  type ImprovementProposal,
  type RunOutcome,
  type Shelf,
} from "@skillshelf/core";
import type { DemoEvent, DemoEventBus } from "./events.js";

/** What the person deciding sees. */
export interface ProposalCard {
  id: string;
  skill: string;
  version?: string;
  title: string;
  rationale: string;
  evidence: string[];
  diff: string;
}

export interface Decision {
  accept: boolean;
  /** Why it was rejected (kept by core and shown to later analyses). */
  reason?: string;
  /** Who decided, as the transcript should say it: "you", "the scripted user", "--yes". */
  by: string;
}

export type Decider = (card: ProposalCard) => Promise<Decision | "skip">;

export interface ImproveOptions {
  shelf: Shelf;
  bus: DemoEventBus;
  generate: Generate;
  skill: string;
  transcript: string;
  outcome: RunOutcome;
  decide: Decider;
  /**
   * After an accept: run the request again (a new conversation), so the transcript shows what
   * the accepted version changes. Runs before the rollback.
   */
  nextRun?: () => Promise<void>;
  /** After an accept, roll back to the version before it (the story does, to show undo). */
  rollback?: boolean;
}

export interface ImproveResult {
  proposals: ImprovementProposal[];
  accepted: string[];
  rejected: string[];
}

export async function improveSkill(options: ImproveOptions): Promise<ImproveResult> {
  try {
    return await improve(options);
  } catch (error) {
    // A real model can answer the analysis with unusable JSON, or propose an edit core's
    // guards refuse: core wrote nothing, and the demo says why instead of failing.
    if (!(error instanceof ImproveError)) throw error;
    options.bus.emit({ type: "notice", text: `improvement stopped (${error.code}): ${error.message}` });
    return { proposals: [], accepted: [], rejected: [] };
  }
}

async function improve(options: ImproveOptions): Promise<ImproveResult> {
  const { shelf, bus, skill } = options;
  const result: ImproveResult = { proposals: [], accepted: [], rejected: [] };
  bus.emit({
    type: "analysis",
    skill,
    status: options.outcome.status,
    ...(options.outcome.feedback && { feedback: options.outcome.feedback }),
  });
  const { proposals } = await shelf.improvements.analyze({
    skill,
    transcript: options.transcript,
    outcome: options.outcome,
    generate: options.generate,
  });
  result.proposals = proposals;
  if (proposals.length === 0) {
    bus.emit({ type: "improvement-none", skill, reason: "the analysis found nothing general to improve" });
    return result;
  }

  for (const proposal of proposals) {
    const preview = await shelf.improvements.preview(proposal.id);
    const card: ProposalCard = {
      id: proposal.id,
      skill,
      ...(proposal.baseVersion && { version: proposal.baseVersion }),
      title: proposal.title,
      rationale: proposal.rationale,
      evidence: proposal.evidence,
      diff: preview.diff ?? "",
    };
    bus.emit({ type: "improvement-proposed", ...card });
    const decision = await options.decide(card);
    if (decision === "skip") {
      bus.emit({
        type: "notice",
        text: `proposal ${short(proposal.id)} stays pending (skillshelf improve list)`,
      });
      continue;
    }
    if (!decision.accept) {
      const reason = decision.reason?.trim() || "not wanted";
      await shelf.improvements.reject(proposal.id, reason);
      bus.emit({
        type: "improvement-decided",
        id: proposal.id,
        skill,
        decision: "rejected",
        by: decision.by,
        reason,
      });
      result.rejected.push(proposal.id);
      continue;
    }
    const accepted = await shelf.improvements.accept(proposal.id, { generate: options.generate });
    bus.emit({ type: "improvement-decided", id: proposal.id, skill, decision: "accepted", by: decision.by });
    result.accepted.push(proposal.id);
    const write = accepted.write;
    if (!write) continue; // the change was already in the file
    await shelf.refresh();
    bus.emit(versionEvent(skill, write.previousVersion, write.version, write.versionId));
    const [, before] = await shelf.history(skill);
    if (before) {
      bus.emit({
        type: "skill-diff",
        skill,
        from: before.version,
        to: write.version,
        diff: await shelf.diff(skill, before.id, write.versionId),
      });
    }
  }

  if (options.nextRun && result.accepted.length > 0) await options.nextRun();

  if (options.rollback && result.accepted.length > 0) {
    // The version before the first accepted change: undo is one call, and itself a version.
    const versions = await shelf.history(skill);
    const target = versions.find((v) => v.version === proposals[0]?.baseVersion && !v.current) ?? versions[1];
    if (target) {
      const write = await shelf.rollback(skill, target.id);
      await shelf.refresh();
      bus.emit({
        type: "rolled-back",
        skill,
        restored: target.version,
        version: write.version,
        versionId: write.versionId,
      });
    }
  }
  return result;
}

function versionEvent(
  skill: string,
  from: string | undefined,
  to: string | undefined,
  versionId: string,
): DemoEvent {
  return { type: "skill-version", skill, ...(from && { from }), ...(to && { to }), versionId };
}

/** A proposal id as a person types it (core takes a unique suffix): its random part. */
export function short(id: string): string {
  return id.split("-").at(-1) ?? id;
}

/**
 * One conversation (thread) of the event stream as the transcript the analysis reads: the
 * user's words, each tool call with its result (refusals included), and the final answer.
 */
export function transcriptOf(events: readonly DemoEvent[], thread: string): string {
  const lines: string[] = [];
  let inThread = false;
  for (const e of events) {
    if (e.type === "user") {
      inThread = e.thread === thread;
      if (inThread) lines.push(`user: ${e.text}`);
      continue;
    }
    if (!inThread) continue;
    if (e.type === "activated") lines.push(`assistant: [loaded skill ${e.skill}]`);
    else if (e.type === "tool-call") lines.push(`${e.agent} → ${e.tool} ${JSON.stringify(e.args)}`);
    else if (e.type === "tool-result") lines.push(`${e.tool} result: ${clip(e.output, 600)}`);
    else if (e.type === "tool-blocked") {
      lines.push(
        `assistant → ${e.tool}: TOOL_NOT_ALLOWED (not in the allowed-tools of ${e.skill ?? e.active.join(", ")})`,
      );
    } else if (e.type === "delegated") lines.push(`assistant → delegate to ${e.role}: ${clip(e.task, 300)}`);
    else if (e.type === "answer" && e.thread === thread) lines.push(`assistant: ${e.text}`);
  }
  return lines.join("\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
