/**
 * Guards on a merged skill, against the improvement loop's four failure modes (seed 000):
 *
 * - semantic drift: the merged file must parse, keep its name, and keep its description
 *   unless the proposal says it changes it; permissions (allowed/disallowed tools, who may
 *   invoke it), routing (triggers, exclusions, priority, group, role, model) and the
 *   version are never changed by an improvement. Routing is frozen, not shown as a separate
 *   change to approve: one accepted trigger like `/.+/` or a dropped exclusion changes when
 *   the skill takes over every conversation, which a reviewer reading a body diff misses.
 * - instruction bloat: the body may grow by at most min(30 %, 400 tokens) per accepted
 *   proposal (but always by a small allowance, so a two-line skill can still gain a rule);
 *   growth in every one of the last accepted proposals is flagged.
 * - over-specialisation / wholesale rewrite: the share of changed body lines is bounded.
 * - feedback bias is handled where runs are recorded (positive evidence), not here.
 *
 * Every limit is configurable; violations say which guard and by how much.
 */
import { diffLines } from "diff";
import { estimateTokens } from "../catalog/tokens.js";
import { readVersion } from "../history/version-bump.js";
import { parseSkill } from "../parse/parse-skill.js";
import type { ParseOptions, ParseResult } from "../types.js";

export interface GuardLimits {
  /** Body growth per accepted proposal, as a share of the body before (default 0.3). */
  maxGrowthRatio: number;
  /** Body growth per accepted proposal, in estimated tokens (default 400). */
  maxGrowthTokens: number;
  /** Growth always allowed, whatever the ratio says, in tokens (default 40: about one rule). */
  minGrowthAllowance: number;
  /** Changed body lines / all body lines involved (default 0.35). */
  maxChangedShare: number;
  /** Changes up to this many lines are always allowed (default 8). */
  minChangedLines: number;
  /** Flag bloat when this many accepted proposals in a row grew the body (default 3). */
  bloatStreak: number;
}

export const DEFAULT_GUARD_LIMITS: Readonly<GuardLimits> = Object.freeze({
  maxGrowthRatio: 0.3,
  maxGrowthTokens: 400,
  minGrowthAllowance: 40,
  maxChangedShare: 0.35,
  minChangedLines: 8,
  bloatStreak: 3,
});

export type GuardName =
  | "parse"
  | "name"
  | "description"
  | "permissions"
  | "routing"
  | "version"
  | "growth"
  | "change-size";

export interface GuardViolation {
  guard: GuardName;
  message: string;
}

export interface MergeStats {
  tokensBefore: number;
  tokensAfter: number;
  growthTokens: number;
  allowedGrowthTokens: number;
  changedLines: number;
  changedShare: number;
}

export interface MergeCheck {
  ok: boolean;
  violations: GuardViolation[];
  stats: MergeStats | undefined;
}

export interface CheckMergeInput {
  name: string;
  before: string;
  after: string;
  /** The proposal declares that it changes the description. */
  changesDescription: boolean;
  limits?: Partial<GuardLimits>;
  parse?: (text: string, options: ParseOptions) => ParseResult;
}

const PERMISSION_FIELDS = [
  "allowedTools",
  "disallowedTools",
  "disableModelInvocation",
  "userInvocable",
] as const;

/** Fields that decide when a skill is chosen (and, for roles and forks, how a sub-agent runs). */
const ROUTING_FIELDS = [
  "triggers",
  "exclusions",
  "priority",
  "group",
  "role",
  "model",
  "paths",
  "context",
  "agent",
] as const;

/**
 * What the workflow's steps run (`tool:<name>` runs a host tool with no model deciding), as a
 * sorted list: a step that runs nothing, or an order of steps, grants nothing.
 */
const stepRuns = (skill: { steps?: ReadonlyArray<{ run?: string }> }) =>
  (skill.steps ?? []).flatMap((step) => (step.run ? [step.run] : [])).sort();

export function checkMerge(input: CheckMergeInput): MergeCheck {
  const limits = { ...DEFAULT_GUARD_LIMITS, ...input.limits };
  const parse = input.parse ?? ((text, options) => parseSkill(text, options));
  const violations: GuardViolation[] = [];
  const before = parse(input.before, { folderName: false }).skill;
  const afterResult = parse(input.after, { folderName: false });
  const after = afterResult.skill;
  if (!after) {
    const first = afterResult.diagnostics.find((d) => d.severity === "error");
    violations.push({
      guard: "parse",
      message: `the merged file is not a valid SKILL.md${first ? ` (line ${first.line}: ${first.message})` : ""}`,
    });
    return { ok: false, violations, stats: undefined };
  }
  if (after.name !== input.name) {
    violations.push({ guard: "name", message: `the merge renames the skill to "${after.name}"` });
  }
  if (before && !input.changesDescription && after.description !== before.description) {
    violations.push({
      guard: "description",
      message:
        "the merge changes the description, and the proposal does not say it changes it (semantic drift)",
    });
  }
  if (before) {
    for (const field of PERMISSION_FIELDS) {
      if (!sameValue(before[field], after[field])) {
        violations.push({
          guard: "permissions",
          message: `the merge changes ${kebab(field)} (${show(before[field])} → ${show(after[field])}); an improvement never changes what a skill may do — edit that by hand`,
        });
      }
    }
    if (!sameValue(stepRuns(before), stepRuns(after))) {
      violations.push({
        guard: "permissions",
        message: `the merge changes what the workflow's steps run (${show(stepRuns(before))} → ${show(stepRuns(after))}); an improvement never changes what a skill may do — edit that by hand`,
      });
    }
    for (const field of ROUTING_FIELDS) {
      if (!sameValue(before[field], after[field])) {
        violations.push({
          guard: "routing",
          message: `the merge changes ${field} (${show(before[field])} → ${show(after[field])}); an improvement never changes when a skill is chosen — edit that by hand`,
        });
      }
    }
  }
  if (readVersion(input.after) !== readVersion(input.before)) {
    violations.push({
      guard: "version",
      message: "the merge changes the version; skillshelf bumps it on write",
    });
  }

  const bodyBefore = before?.body ?? "";
  const tokensBefore = estimateTokens(bodyBefore);
  const tokensAfter = estimateTokens(after.body);
  const growthTokens = tokensAfter - tokensBefore;
  const allowedGrowthTokens = Math.max(
    limits.minGrowthAllowance,
    Math.min(Math.floor(tokensBefore * limits.maxGrowthRatio), limits.maxGrowthTokens),
  );
  if (growthTokens > allowedGrowthTokens) {
    violations.push({
      guard: "growth",
      message: `the body grows by ${growthTokens} tokens (${percent(growthTokens, tokensBefore)}); at most ${allowedGrowthTokens} per accepted proposal (instruction bloat)`,
    });
  }

  const { changed, involved } = changedLines(bodyBefore, after.body);
  const changedShare = involved === 0 ? 0 : changed / involved;
  if (changed > limits.minChangedLines && changedShare > limits.maxChangedShare) {
    violations.push({
      guard: "change-size",
      message: `the merge changes ${changed} body lines (${Math.round(changedShare * 100)} % of them); at most ${Math.round(limits.maxChangedShare * 100)} % — an improvement is a small edit, not a rewrite`,
    });
  }

  return {
    ok: violations.length === 0,
    violations,
    stats: {
      tokensBefore,
      tokensAfter,
      growthTokens,
      allowedGrowthTokens,
      changedLines: changed,
      changedShare,
    },
  };
}

/** Non-blank lines added + removed, over non-blank lines before + added. */
function changedLines(before: string, after: string): { changed: number; involved: number } {
  let kept = 0;
  let added = 0;
  let removed = 0;
  const count = (value: string) => value.split("\n").filter((line) => line.trim() !== "").length;
  for (const part of diffLines(before.replace(/\r\n/g, "\n"), after.replace(/\r\n/g, "\n"))) {
    if (part.added) added += count(part.value);
    else if (part.removed) removed += count(part.value);
    else kept += count(part.value);
  }
  return { changed: added + removed, involved: kept + removed + added };
}

/**
 * Instruction bloat across proposals: given the token sizes (before → after) of the
 * skill's accepted improvements, oldest first, flags a run of growth.
 */
export function bloatFlags(
  accepted: ReadonlyArray<{ before: number; after: number }>,
  limits: Partial<GuardLimits> = {},
): string[] {
  const streak = { ...DEFAULT_GUARD_LIMITS, ...limits }.bloatStreak;
  const recent = accepted.slice(-streak);
  if (recent.length < streak || !recent.every((r) => r.after > r.before)) return [];
  const first = recent[0]!.before;
  const last = recent[recent.length - 1]!.after;
  return [
    `instruction bloat: the body grew with each of the last ${streak} accepted improvements (${first} → ${last} tokens, +${percent(last - first, first)}); prefer changes that consolidate or remove rules`,
  ];
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "new" : `${Math.round((part / whole) * 100)} %`;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function show(value: unknown): string {
  return value === undefined ? "unset" : JSON.stringify(value);
}

function kebab(field: (typeof PERMISSION_FIELDS)[number]): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
