/**
 * What the event log says about the shelf: which skills are used and by whom, which were
 * offered but never taken, which have gone unused for N days (seed 001: prune them), and
 * which tool calls the whitelists blocked.
 */
import type { SkillEvent } from "../types.js";

export interface SkillUsageSummary {
  name: string;
  /** Successful activations, by anyone. */
  activations: number;
  byModel: number;
  byUser: number;
  byCode: number;
  /** Refused activation attempts (NOT_FOUND, MODEL_INVOCATION_DISABLED, …). */
  refusals: number;
  /** Times it was a stage-1 candidate. */
  offered: number;
  /** Reads of its SKILL.md by a host's file tool (counts as use, seed 002). */
  reads: number;
  lastUsed?: string;
}

export interface EventSummary {
  /** Oldest and newest event time in the log. */
  from?: string;
  to?: string;
  events: number;
  /** Per skill, most used first. */
  skills: SkillUsageSummary[];
  /** Skills with no activation or read in the last `days` days (known skills first, then any seen in the log). */
  zeroUse: { days: number; since: string; skills: string[] };
  blocked: {
    total: number;
    byTool: Array<{ tool: string; count: number }>;
    /** The skill whose whitelist blocked the call (or, for older events, each active skill). */
    bySkill: Array<{ skill: string; count: number }>;
  };
  refusals: { total: number; byType: Record<string, number> };
  delegations: { total: number; byRole: Record<string, number> };
}

export interface SummarizeOptions {
  /** "Now" for the zero-use window (default: the current time). */
  now?: Date;
  /** Zero-use window in days (default 30). */
  zeroUseDays?: number;
  /** Every skill on the shelf, so skills that never appear in the log are reported as unused too. */
  skills?: readonly string[];
}

const DAY_MS = 86_400_000;

function countBy(map: Map<string, number>, key: string) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function ranked<K extends string>(
  map: Map<string, number>,
  key: K,
): Array<Record<K, string> & { count: number }> {
  return [...map]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => ({ [key]: name, count }) as Record<K, string> & { count: number });
}

export function summarizeEvents(events: Iterable<SkillEvent>, options: SummarizeOptions = {}): EventSummary {
  const now = options.now ?? new Date();
  const days = options.zeroUseDays ?? 30;
  const since = new Date(now.getTime() - days * DAY_MS);
  const sinceIso = since.toISOString();

  const skills = new Map<string, SkillUsageSummary>();
  const entry = (name: string): SkillUsageSummary => {
    let s = skills.get(name);
    if (!s) {
      s = { name, activations: 0, byModel: 0, byUser: 0, byCode: 0, refusals: 0, offered: 0, reads: 0 };
      skills.set(name, s);
    }
    return s;
  };
  const used = (s: SkillUsageSummary, at: string) => {
    if (!s.lastUsed || at > s.lastUsed) s.lastUsed = at;
  };
  for (const name of options.skills ?? []) entry(name);

  const blockedByTool = new Map<string, number>();
  const blockedBySkill = new Map<string, number>();
  const refusalsByType: Record<string, number> = {};
  const delegationsByRole: Record<string, number> = {};
  let count = 0;
  let blocked = 0;
  let refusals = 0;
  let delegations = 0;
  let from: string | undefined;
  let to: string | undefined;

  for (const event of events) {
    count++;
    if (!from || event.at < from) from = event.at;
    if (!to || event.at > to) to = event.at;
    switch (event.type) {
      case "candidates":
        for (const c of event.candidates) entry(c.name).offered++;
        break;
      case "activated": {
        const s = entry(event.skill);
        s.activations++;
        if (event.by === "model") s.byModel++;
        else if (event.by === "user") s.byUser++;
        else s.byCode++;
        used(s, event.at);
        break;
      }
      case "activation-refused":
        // A refusal for an unknown name is not a skill: count it, but don't invent an entry.
        if (event.error_type !== "NOT_FOUND") entry(event.skill).refusals++;
        refusals++;
        refusalsByType[event.error_type] = (refusalsByType[event.error_type] ?? 0) + 1;
        break;
      case "skill-read": {
        const s = entry(event.skill);
        s.reads++;
        used(s, event.at);
        break;
      }
      case "tool-blocked":
        blocked++;
        countBy(blockedByTool, event.tool);
        if (event.skill) countBy(blockedBySkill, event.skill);
        else for (const skill of event.active) countBy(blockedBySkill, skill);
        break;
      case "delegated":
        delegations++;
        delegationsByRole[event.role] = (delegationsByRole[event.role] ?? 0) + 1;
        break;
      default:
        break;
    }
  }

  const zeroUse = [...skills.values()]
    .filter((s) => !s.lastUsed || s.lastUsed < sinceIso)
    .map((s) => s.name)
    .sort((a, b) => a.localeCompare(b));

  return {
    from,
    to,
    events: count,
    skills: [...skills.values()].sort(
      (a, b) => b.activations - a.activations || b.reads - a.reads || a.name.localeCompare(b.name),
    ),
    zeroUse: { days, since: sinceIso, skills: zeroUse },
    blocked: {
      total: blocked,
      byTool: ranked(blockedByTool, "tool"),
      bySkill: ranked(blockedBySkill, "skill"),
    },
    refusals: { total: refusals, byType: refusalsByType },
    delegations: { total: delegations, byRole: delegationsByRole },
  };
}
