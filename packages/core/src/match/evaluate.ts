/**
 * Routing evaluation: how well does stage 1 send messages to the right skill, and leave
 * unrelated messages alone? Used by `skillshelf eval` and by the routing benchmark, so
 * both count the same way.
 *
 * A case is one message and what should happen:
 * - `expect: "name"` (or several names: any of them counts) — a positive; it counts at k
 *   when an expected skill is among the first k candidates.
 * - `expect: null` — nothing applies; correct when there is no candidate at all.
 * - `notExpect: "name"` — that skill must not be a candidate (others may be).
 */
import type { MatchResult } from "../types.js";

export interface RoutingCase {
  message: string;
  expect: string[] | null;
  /** Set for "this skill must not trigger" cases (`should_trigger: false` with a skill). */
  notExpect?: string;
  /** Where the case came from (line number or id), for reports. */
  id?: string;
}

export interface CaseError {
  line: number;
  message: string;
}

const MESSAGE_KEYS = ["message", "query", "prompt", "user_prompt"] as const;
const EXPECT_KEYS = ["expect", "expected_skill", "expected_skills", "skill"] as const;
const SHOULD_KEYS = ["should_trigger", "should_activate"] as const;

/**
 * Parse cases from JSON Lines (or one JSON array). Accepted shapes:
 * `{"message", "expect": name | [names] | null}`, `{"query", "should_trigger", "skill"?}`
 * (a default skill can be given for files written for one skill), and the common aliases
 * `prompt`/`user_prompt`, `expected_skill(s)`, `should_activate`.
 */
export function parseRoutingCases(
  text: string,
  defaultSkill?: string,
): { cases: RoutingCase[]; errors: CaseError[] } {
  const cases: RoutingCase[] = [];
  const errors: CaseError[] = [];
  const trimmed = text.trim();
  let records: { line: number; value: unknown }[];
  if (trimmed.startsWith("[")) {
    try {
      records = (JSON.parse(trimmed) as unknown[]).map((value, i) => ({ line: i + 1, value }));
    } catch (error) {
      return { cases, errors: [{ line: 1, message: `not valid JSON: ${(error as Error).message}` }] };
    }
  } else {
    records = [];
    text.split(/\r?\n/u).forEach((raw, i) => {
      if (raw.trim() === "" || raw.trim().startsWith("//")) return;
      try {
        records.push({ line: i + 1, value: JSON.parse(raw) });
      } catch (error) {
        errors.push({ line: i + 1, message: `not valid JSON: ${(error as Error).message}` });
      }
    });
  }
  for (const { line, value } of records) {
    const result = toCase(value, defaultSkill);
    if (typeof result === "string") errors.push({ line, message: result });
    else cases.push({ ...result, id: result.id ?? `line ${line}` });
  }
  return { cases, errors };
}

function toCase(value: unknown, defaultSkill: string | undefined): RoutingCase | string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "a case must be a JSON object";
  const record = value as Record<string, unknown>;
  const messageKey = MESSAGE_KEYS.find((k) => typeof record[k] === "string");
  if (!messageKey) return `a case needs a "message" (or "query") string`;
  const message = record[messageKey] as string;
  const id =
    typeof record.id === "string"
      ? record.id
      : typeof record.case_id === "string"
        ? record.case_id
        : undefined;
  const expectKey = EXPECT_KEYS.find((k) => k in record);
  const raw = expectKey ? record[expectKey] : undefined;
  let names: string[] | null | undefined;
  if (raw === null) names = null;
  else if (typeof raw === "string") names = [raw];
  else if (Array.isArray(raw) && raw.every((n) => typeof n === "string")) names = raw.length > 0 ? raw : null;
  else if (raw !== undefined) return `"${expectKey}" must be a skill name, a list of names, or null`;
  const shouldKey = SHOULD_KEYS.find((k) => typeof record[k] === "boolean");
  const should = shouldKey ? (record[shouldKey] as boolean) : undefined;
  const skill = names?.[0] ?? defaultSkill;
  const base = id ? { message, id } : { message };
  if (should === false) {
    // "This should not trigger": of a named skill, or of anything at all.
    return names === undefined && skill !== undefined
      ? { ...base, expect: [], notExpect: skill }
      : { ...base, expect: null };
  }
  if (names === undefined) {
    if (should === true && skill) return { ...base, expect: [skill] };
    return `a case needs "expect" (a skill name or null) or "should_trigger"`;
  }
  return { ...base, expect: names };
}

export interface Confusion {
  /** The expected skill (first expected name), or null for "nothing applies". */
  expected: string | null;
  /** What stage 1 put first. */
  got: string;
  count: number;
}

export interface RoutingReport {
  cases: number;
  positives: number;
  recallAt1: number;
  recallAt3: number;
  recallAt5: number;
  /** `expect: null` cases. */
  none: { cases: number; correct: number; accuracy: number };
  /** `notExpect` cases. */
  notTriggered: { cases: number; correct: number; accuracy: number };
  ambiguous: number;
  /** Most frequent first. */
  confusions: Confusion[];
  /** Positives with no expected skill in the first 5 candidates. */
  misses: { id?: string; message: string; expected: string[]; got: string[] }[];
}

/** Run `route` over `cases` and count. `route` is typically `(m) => matcher.match(skills, m)`. */
export function evaluateRouting(
  cases: readonly RoutingCase[],
  route: (message: string) => MatchResult,
): RoutingReport {
  let positives = 0;
  let hit1 = 0;
  let hit3 = 0;
  let hit5 = 0;
  const none = { cases: 0, correct: 0, accuracy: 0 };
  const notTriggered = { cases: 0, correct: 0, accuracy: 0 };
  let ambiguous = 0;
  const confusions = new Map<string, Confusion>();
  const misses: RoutingReport["misses"] = [];
  const confuse = (expected: string | null, got: string) => {
    const key = `${expected}\u0000${got}`;
    const entry = confusions.get(key) ?? { expected, got, count: 0 };
    entry.count++;
    confusions.set(key, entry);
  };

  for (const c of cases) {
    const result = route(c.message);
    const names = result.candidates.map((x) => x.name);
    if (result.ambiguous) ambiguous++;
    if (c.notExpect !== undefined) {
      notTriggered.cases++;
      if (!names.includes(c.notExpect)) notTriggered.correct++;
      continue;
    }
    if (c.expect === null) {
      none.cases++;
      if (names.length === 0) none.correct++;
      else confuse(null, names[0] as string);
      continue;
    }
    positives++;
    const expected = new Set(c.expect);
    const rank = names.findIndex((n) => expected.has(n));
    if (rank === 0) hit1++;
    if (rank >= 0 && rank < 3) hit3++;
    if (rank >= 0 && rank < 5) hit5++;
    if (rank !== 0 && names[0] !== undefined) confuse(c.expect[0] as string, names[0]);
    if (rank < 0 || rank >= 5)
      misses.push({
        ...(c.id ? { id: c.id } : {}),
        message: c.message,
        expected: c.expect,
        got: names.slice(0, 5),
      });
  }
  const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
  none.accuracy = share(none.correct, none.cases);
  notTriggered.accuracy = share(notTriggered.correct, notTriggered.cases);
  return {
    cases: cases.length,
    positives,
    recallAt1: share(hit1, positives),
    recallAt3: share(hit3, positives),
    recallAt5: share(hit5, positives),
    none,
    notTriggered,
    ambiguous,
    confusions: [...confusions.values()].sort(
      (a, b) =>
        b.count - a.count ||
        String(a.expected).localeCompare(String(b.expected)) ||
        a.got.localeCompare(b.got),
    ),
    misses,
  };
}
