import type { EventSink, SkillEvent } from "@skillshelf/core";

/**
 * What the demo shows, as data: core's skill events (the shelf emits them straight into this
 * bus) plus the story's own steps. The terminal renderer and `--json` both read this stream,
 * and the tests assert on it.
 */
export type DemoEvent =
  | SkillEvent
  | {
      type: "setup";
      framework: string;
      model: string;
      offline: boolean;
      sandbox: string;
      /** The host tools every agent's tools are drawn from. */
      tools: string[];
      skills: Array<{ name: string; scope: string; role: boolean; file: string; hidden: boolean }>;
    }
  | { type: "chapter"; index: number; title: string; note?: string }
  | { type: "user"; thread: string; text: string }
  | { type: "tool-call"; agent: string; tool: string; args: unknown }
  | { type: "tool-result"; agent: string; tool: string; args: unknown; output: string }
  | { type: "answer"; thread: string; text: string }
  | {
      type: "improvement-proposed";
      id: string;
      skill: string;
      version?: string;
      title: string;
      rationale: string;
      evidence: string[];
      diff: string;
    }
  | { type: "analysis"; skill: string; status: string; feedback?: string }
  | { type: "improvement-none"; skill: string; reason: string }
  | {
      type: "improvement-decided";
      id: string;
      skill: string;
      decision: "accepted" | "rejected";
      by: string;
      reason?: string;
    }
  | { type: "skill-version"; skill: string; from?: string; to?: string; versionId: string }
  | { type: "skill-diff"; skill: string; from?: string; to?: string; diff: string }
  | { type: "rolled-back"; skill: string; restored?: string; version?: string; versionId: string }
  | { type: "script-request"; skill: string; script: string; args: string[] }
  | { type: "script-decided"; skill: string; script: string; approve: boolean; by: string }
  | { type: "diagnostic"; code: string; severity: string; file: string; message: string }
  | { type: "notice"; text: string }
  | { type: "error"; message: string };

export interface DemoEventBus extends EventSink {
  readonly events: DemoEvent[];
  /** Emit a demo event (core's sink interface takes skill events through `emit` too). */
  emit(event: DemoEvent): void;
  subscribe(listener: (event: DemoEvent) => void): () => void;
}

export function createEventBus(): DemoEventBus {
  const events: DemoEvent[] = [];
  const listeners = new Set<(event: DemoEvent) => void>();
  return {
    events,
    emit(event) {
      events.push(event);
      for (const l of listeners) l(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The skill-level sequence the three frameworks must agree on: one line per event, without
 * timestamps, ids, paths or model wording.
 */
export function skillEventSignature(events: readonly DemoEvent[]): string[] {
  return events.flatMap((e) => {
    switch (e.type) {
      case "chapter":
        return [`chapter ${e.index}`];
      case "user":
        return [`user ${e.thread}`];
      case "candidates":
        return [
          `candidates ${e.candidates.map((c) => c.name).join(",") || "-"}${e.vetoed.length ? ` vetoed:${e.vetoed.map((v) => v.name).join(",")}` : ""}`,
        ];
      case "activated":
        return [`activated ${e.skill} by ${e.by}`];
      case "deactivated":
        return [`ended ${e.skill} by ${e.why ?? "code"}`];
      case "activation-refused":
        return [`refused ${e.skill} ${e.error_type}`];
      case "tool-blocked":
        return [`blocked ${e.tool} by ${e.skill ?? "?"}`];
      case "delegated":
        return [`delegated ${e.role} tools:${e.tools.join(",")}`];
      case "tool-call":
        return [`call ${e.agent} ${e.tool}`];
      case "script-decided":
        return [`script ${e.skill} ${e.script} ${e.approve ? "approved" : "refused"}`];
      case "improvement-proposed":
        return [`proposed ${e.skill}`];
      case "improvement-decided":
        return [`${e.decision} ${e.skill}`];
      case "skill-version":
        return [`version ${e.skill} ${e.from ?? "?"}→${e.to ?? "?"}`];
      case "rolled-back":
        return [`rolled-back ${e.skill} to ${e.restored ?? "?"}`];
      default:
        return [];
    }
  });
}

/** The kinds of the story's milestones, in the order the story must reach them. */
export const MILESTONES = [
  "candidates",
  "activated",
  "tool-blocked",
  "delegated",
  "improvement-decided",
  "rolled-back",
] as const;
