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
 *   normalised message (NFKC, lower-case) on a linear-time engine (regex-trigger.ts); what that
 *   engine cannot run the same way (back-references, look-arounds) is refused at compile time.
 *   It only ever sees the first {@link MAX_REGEX_INPUT} characters of a message.
 */
import { CJK_CHAR as CJK } from "./normalize.js";
import { compileRegexTrigger } from "./regex-trigger.js";
import { canonicalForm } from "./tokenize.js";

export { MAX_REGEX_INPUT, MAX_REGEX_LENGTH, MAX_REGEX_PROGRAM } from "./regex-trigger.js";

export const MAX_GAP_WORDS = 4;
export const MAX_GAP_CHARS = 16;
export const MAX_TRIGGER_LENGTH = 200;
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
  /**
   * What runs {@link test}: a scan of the message's words, or RE2 for a `/regex/`. Both are
   * linear in the message; no trigger runs on a backtracking engine.
   */
  engine: "words" | "re2";
  /** RE2 instructions of a `/regex/` (at most {@link MAX_REGEX_PROGRAM}): its cost per character. */
  programSize?: number;
  /** A key that must be in {@link TriggerInput.keys} for a match to be possible; undefined = always try. */
  anchor: string | undefined;
  /** The matched text, or undefined. */
  test(input: TriggerInput): string | undefined;
}

export type CompileResult =
  | { ok: true; trigger: CompiledTrigger }
  | { ok: false; error: string; hint: string };

/** Prepare a message for {@link CompiledTrigger.test}. */
export function triggerInput(
  canonical: string,
  normalized: string,
  words: readonly string[] = canonical.split(" "),
): TriggerInput {
  const keys = new Set<string>();
  for (const word of words) {
    if (word === "") continue;
    if (CJK.test(word)) for (const char of word) keys.add(char);
    else keys.add(word);
  }
  return { canonical, normalized, keys };
}

/**
 * `phraseForm`: how a part's text reads as a phrase ({@link canonicalForm}); a prebuilt shelf
 * hands over the forms it computed, so a cold start stems no skill names.
 */
export function compileTrigger(
  source: string,
  phraseForm: (part: string) => string = canonicalForm,
): CompileResult {
  const text = source.trim();
  if (text === "") return { ok: false, error: "empty trigger", hint: "Remove the empty entry." };
  if (text.length > 2 && text.startsWith("/") && text.lastIndexOf("/") > 0) return compileRegexTrigger(text);
  if (text.length > MAX_TRIGGER_LENGTH) {
    return {
      ok: false,
      error: `trigger is ${text.length} characters (max ${MAX_TRIGGER_LENGTH})`,
      hint: "A trigger is a short phrase a user would type; put longer text in `examples`.",
    };
  }
  const rawParts = text
    .split("*")
    .map(phraseForm)
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
      engine: "words",
      anchor: anchorOf(parts),
      test: (input) => matchParts(parts, input.canonical),
    },
  };
}

/**
 * A skill's name as a phrase trigger ("pdf-tools" is mentioned by "… the pdf tools …"): what
 * `compileTrigger` makes of it with each `*` read as a space, undefined where that fails.
 * Every skill's name is compiled at an index build and kept with the skill's index entry
 * (8,000 on a large shelf, most never mentioned), so a name is one small object whose methods
 * live on its class, not a closure and a result wrapper each; odd names (one that reads as a
 * `/regex/`, or longer than a trigger may be) are left to `compileTrigger`.
 */
export function compileNamePhrase(
  name: string,
  phraseForm: (part: string) => string = canonicalForm,
): CompiledTrigger | undefined {
  const source = name.replace(/\*/gu, " ");
  const text = source.trim();
  if (
    text.length > MAX_TRIGGER_LENGTH ||
    (text.length > 2 && text.startsWith("/") && text.lastIndexOf("/") > 0)
  ) {
    const result = compileTrigger(source, phraseForm);
    return result.ok ? result.trigger : undefined;
  }
  const canonical = phraseForm(text);
  if (canonical === "") return undefined;
  const part = toPart(canonical);
  return new NamePhrase(source, part, anchorOf([part]));
}

class NamePhrase implements CompiledTrigger {
  constructor(
    readonly source: string,
    private readonly part: Part,
    readonly anchor: string | undefined,
  ) {}
  get kind(): "phrase" {
    return "phrase";
  }
  get engine(): "words" {
    return "words";
  }
  test(input: TriggerInput): string | undefined {
    return matchParts([this.part], input.canonical);
  }
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
  // (part, position) pairs already known not to lead to a match: a hostile `a * a * a * b`
  // would otherwise retry each of them once per way of reaching it (exponential in the gaps).
  const failed = new Set<number>();
  let from = 0;
  for (;;) {
    const at = occurrence(first, text, from, text.length);
    if (at === -1) return undefined;
    const end = matchRest(parts, 1, text, at + first.text.length, failed);
    if (end !== -1) return text.slice(at, end);
    from = at + 1;
  }
}

// Every occurrence of the next part inside the gap window is tried, so "写*文章" finds the
// second 文章 when the first is too far; each (part, position) is tried once per message.
function matchRest(
  parts: readonly Part[],
  index: number,
  text: string,
  from: number,
  failed: Set<number>,
): number {
  if (index === parts.length) return from;
  const key = index * (text.length + 1) + from;
  if (failed.has(key)) return -1;
  const part = parts[index] as Part;
  const windowEnd = from + MAX_GAP_CHARS + 1;
  let start = from;
  for (;;) {
    const at = occurrence(part, text, start, windowEnd);
    if (at === -1) break;
    if (gapIsShort(text.slice(from, at))) {
      const end = matchRest(parts, index + 1, text, at + part.text.length, failed);
      if (end !== -1) return end;
    }
    start = at + 1;
  }
  failed.add(key);
  return -1;
}
