/**
 * Trigger (and exclusion) phrases, compiled once per skill.
 *
 * Three forms:
 * - a plain phrase, `run tests`: matches the message's words in order, stemmed and
 *   case/width-blind ("Running the tests" does not match — "the" is in between — but
 *   "running tests", "RUN TESTS" and "ｒｕｎ ｔｅｓｔｓ" do). Latin words must match whole
 *   words; Chinese/Japanese runs match anywhere (they have no spaces to anchor on).
 * - a phrase with `*` gaps, `写*文章`, `write * article`: each `*` stands for a short gap of
 *   at most {@link MAX_GAP_WORDS} words and {@link MAX_GAP_CHARS} characters.
 * - `/regex/flags`, the escape hatch: a JavaScript regular expression run against the
 *   normalised message (NFKC, lower-case). Refused at compile time when it could backtrack
 *   catastrophically (nested or overlapping quantifiers, back-references) or is long; it only
 *   ever sees the first {@link MAX_REGEX_INPUT} characters of a message.
 */
import safeRegex from "safe-regex2";
import { CJK_CHAR as CJK } from "./normalize.js";
import { canonicalForm } from "./tokenize.js";

export const MAX_GAP_WORDS = 4;
export const MAX_GAP_CHARS = 16;
export const MAX_TRIGGER_LENGTH = 200;
export const MAX_REGEX_LENGTH = 200;
export const MAX_REGEX_INPUT = 1_000;
const MAX_PARTS = 8;

/** The message as triggers see it: computed once per message, shared by every trigger. */
export interface TriggerInput {
  canonical: string;
  normalized: string;
  /** Whole canonical words plus every CJK character: a trigger is only tried when its anchor is here. */
  keys: ReadonlySet<string>;
}

export interface CompiledTrigger {
  /** What the skill author wrote. */
  source: string;
  kind: "phrase" | "gap" | "regex";
  /** A key that must be in {@link TriggerInput.keys} for a match to be possible; undefined = always try. */
  anchor: string | undefined;
  /** The matched text, or undefined. */
  test(input: TriggerInput): string | undefined;
}

export type CompileResult =
  | { ok: true; trigger: CompiledTrigger }
  | { ok: false; error: string; hint: string };

/** Prepare a message for {@link CompiledTrigger.test}. */
export function triggerInput(canonical: string, normalized: string): TriggerInput {
  const keys = new Set<string>();
  for (const word of canonical.split(" ")) {
    if (word === "") continue;
    if (CJK.test(word)) for (const char of word) keys.add(char);
    else keys.add(word);
  }
  return { canonical, normalized, keys };
}

export function compileTrigger(source: string): CompileResult {
  const text = source.trim();
  if (text === "") return { ok: false, error: "empty trigger", hint: "Remove the empty entry." };
  if (text.length > 2 && text.startsWith("/") && text.lastIndexOf("/") > 0) return compileRegex(text);
  if (text.length > MAX_TRIGGER_LENGTH) {
    return {
      ok: false,
      error: `trigger is ${text.length} characters (max ${MAX_TRIGGER_LENGTH})`,
      hint: "A trigger is a short phrase a user would type; put longer text in `examples`.",
    };
  }
  const rawParts = text
    .split("*")
    .map(canonicalForm)
    .filter((part) => part !== "");
  if (rawParts.length === 0) {
    return {
      ok: false,
      error: `trigger "${source}" has no letters or digits`,
      hint: "Write the words a user would type.",
    };
  }
  if (rawParts.length > MAX_PARTS) {
    return {
      ok: false,
      error: `trigger has ${rawParts.length} parts (max ${MAX_PARTS})`,
      hint: "Use fewer `*` gaps, or a /regex/.",
    };
  }
  const parts = rawParts.map(toPart);
  return {
    ok: true,
    trigger: {
      source,
      kind: parts.length > 1 ? "gap" : "phrase",
      anchor: anchorOf(parts),
      test: (input) => matchParts(parts, input.canonical),
    },
  };
}

interface Part {
  text: string;
  /** Latin start/end must sit on a word boundary; CJK edges may sit anywhere. */
  boundedStart: boolean;
  boundedEnd: boolean;
}

function toPart(text: string): Part {
  return {
    text,
    boundedStart: !CJK.test(text[0] as string),
    boundedEnd: !CJK.test(text.at(-1) as string),
  };
}

// The rarest-looking key: the longest Latin word, else the first CJK character.
function anchorOf(parts: readonly Part[]): string | undefined {
  let best: string | undefined;
  for (const part of parts) {
    for (const word of part.text.split(" ")) {
      if (CJK.test(word)) continue;
      if (best === undefined || word.length > best.length) best = word;
    }
  }
  if (best !== undefined) return best;
  for (const char of parts[0]?.text ?? "") if (CJK.test(char)) return char;
  return undefined;
}

function occurrence(part: Part, text: string, from: number, to: number): number {
  let at = text.indexOf(part.text, from);
  while (at !== -1 && at <= to) {
    const end = at + part.text.length;
    const startOk = !part.boundedStart || at === 0 || text[at - 1] === " ";
    const endOk = !part.boundedEnd || end === text.length || text[end] === " ";
    if (startOk && endOk) return at;
    at = text.indexOf(part.text, at + 1);
  }
  return -1;
}

function gapIsShort(gap: string): boolean {
  const trimmed = gap.trim();
  if (trimmed.length > MAX_GAP_CHARS) return false;
  if (trimmed === "") return true;
  return trimmed.split(" ").length <= MAX_GAP_WORDS;
}

/** Match parts in order with short gaps between them; returns the matched slice. */
function matchParts(parts: readonly Part[], text: string): string | undefined {
  const first = parts[0] as Part;
  let from = 0;
  for (;;) {
    const at = occurrence(first, text, from, text.length);
    if (at === -1) return undefined;
    const end = matchRest(parts, 1, text, at + first.text.length);
    if (end !== -1) return text.slice(at, end);
    from = at + 1;
  }
}

// Every occurrence of the next part inside the gap window is tried, so "写*文章" finds the
// second 文章 when the first is too far; windows are short, so this stays linear in practice.
function matchRest(parts: readonly Part[], index: number, text: string, from: number): number {
  if (index === parts.length) return from;
  const part = parts[index] as Part;
  const windowEnd = from + MAX_GAP_CHARS + 1;
  let start = from;
  for (;;) {
    const at = occurrence(part, text, start, windowEnd);
    if (at === -1) return -1;
    if (gapIsShort(text.slice(from, at))) {
      const end = matchRest(parts, index + 1, text, at + part.text.length);
      if (end !== -1) return end;
    }
    start = at + 1;
  }
}

const BACKREFERENCE = /\\[1-9]|\\k</u;
const MAX_UNBOUNDED = 2;

/**
 * What `safe-regex2` (star height) does not catch: a repeated group holding an alternation
 * (`(a|ab)+` is exponential when the branches overlap, and overlap is undecidable in
 * general, so it is refused outright), and many unbounded quantifiers in a row (`.*a.*b.*c`
 * is polynomial of that degree). With at most two, the capped input keeps the worst case in
 * the low millions of steps.
 */
function regexRisk(pattern: string): string | undefined {
  const groups: { alternation: boolean }[] = [];
  let unbounded = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    let closedAlternation = false;
    if (char === "\\") {
      i++;
    } else if (char === "[") {
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
    } else if (char === "(") {
      groups.push({ alternation: false });
    } else if (char === ")") {
      closedAlternation = groups.pop()?.alternation ?? false;
    } else if (char === "|") {
      const top = groups.at(-1);
      if (top) top.alternation = true;
    }
    const quantifier = quantifierAfter(pattern, i + 1);
    if (quantifier === "unbounded") unbounded++;
    if (quantifier !== "none" && closedAlternation) return "a repeated group with an alternation";
  }
  return unbounded > MAX_UNBOUNDED ? `${unbounded} unbounded quantifiers` : undefined;
}

/** `*`, `+`, `{n,}` repeat without bound; `{n,m}` (m > 1) and `{n}` (n > 1) repeat; `?` only makes optional. */
function quantifierAfter(pattern: string, at: number): "none" | "bounded" | "unbounded" {
  const char = pattern[at];
  if (char === "*" || char === "+") return "unbounded";
  if (char !== "{") return "none";
  const m = /^\{(\d+)(,(\d*))?\}/u.exec(pattern.slice(at));
  if (!m) return "none";
  if (m[2] !== undefined && m[3] === "") return "unbounded";
  const max = Number(m[3] ?? m[1]);
  return max > 1 ? "bounded" : "none";
}

function compileRegex(text: string): CompileResult {
  const close = text.lastIndexOf("/");
  const pattern = text.slice(1, close);
  const flags = text.slice(close + 1);
  if (!/^[imsu]*$/u.test(flags)) {
    return {
      ok: false,
      error: `regex trigger ${text} has unsupported flags "${flags}"`,
      hint: "Only i, m, s and u are allowed (matching is already case-blind).",
    };
  }
  if (pattern.length > MAX_REGEX_LENGTH) {
    return {
      ok: false,
      error: `regex trigger is ${pattern.length} characters (max ${MAX_REGEX_LENGTH})`,
      hint: "Split it into several triggers.",
    };
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, `${flags.includes("i") ? flags : `${flags}i`}`);
  } catch (error) {
    return {
      ok: false,
      error: `regex trigger ${text} does not compile: ${(error as Error).message}`,
      hint: "Fix the regular expression, or write a plain phrase.",
    };
  }
  const risk = BACKREFERENCE.test(pattern)
    ? "a back-reference"
    : (regexRisk(pattern) ?? (safeRegex(regex) ? undefined : "nested quantifiers"));
  if (risk !== undefined) {
    return {
      ok: false,
      error: `regex trigger ${text} could backtrack catastrophically (${risk})`,
      hint: "Keep it simple: no quantifier on a group that holds a quantifier or an alternation (write /(ab)+/, not /(a+)+/ or /(a|ab)+/), at most two of * + {n,}.",
    };
  }
  return {
    ok: true,
    trigger: {
      source: text,
      kind: "regex",
      anchor: undefined,
      test: (input) => {
        const subject =
          input.normalized.length > MAX_REGEX_INPUT
            ? input.normalized.slice(0, MAX_REGEX_INPUT)
            : input.normalized;
        const m = regex.exec(subject);
        return m ? m[0] : undefined;
      },
    },
  };
}
