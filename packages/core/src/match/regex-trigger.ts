/**
 * `/regex/flags` triggers, run on RE2 (re2js, a pure-JavaScript port of it): an automaton
 * instead of a backtracking engine, so testing a message costs at most its length times the
 * pattern's compiled size, whatever the pattern. Checking pattern shapes for catastrophic
 * backtracking is not enough: lazy quantifiers (`(a+?)+?b`) walked past a star-height check,
 * and every heuristic misses some form; here nothing ever backtracks over a message.
 *
 * A pattern is accepted when it is a JavaScript regular expression (read in Unicode mode, as
 * RE2 reads it: by code points, `\p{…}` classes) that RE2 runs with the same meaning:
 * - On the text triggers see (NFKC, lower-case, every whitespace run one space, no line
 *   breaks), `.`, `\s`, `\S`, `\w`, `\d`, `\b`, `^` and `$` mean the same in both engines, and
 *   RE2 picks the same leftmost-first match JavaScript does (greedy and lazy alike).
 * - Spellings RE2 writes differently are translated (`\uXXXX`, `\u{…}`, `\p{Script=Han}`,
 *   `[^]`); what needs backtracking — back-references, lookahead, lookbehind — is refused with
 *   a hint, and so is whatever else RE2 cannot compile.
 * - The compiled program is at most {@link MAX_REGEX_PROGRAM} instructions, which bounds the
 *   cost of one message at the input cap (bench/triggers.bench.ts measures it): bounded repeats
 *   count, since `.{0,20}` is twenty copies of `.`.
 */
import type { RE2JS } from "re2js";
import { re2js } from "../deferred-libraries.js";
import type { CompileResult } from "./triggers.js";

export const MAX_REGEX_LENGTH = 200;
/** Characters of the message a regex trigger sees. */
export const MAX_REGEX_INPUT = 1_000;
/** RE2 instructions a regex trigger may compile to: its worst case is ≈ 0.6 ms at MAX_REGEX_INPUT. */
export const MAX_REGEX_PROGRAM = 48;

const JS_FLAGS = /^[imsu]*$/u;

export function compileRegexTrigger(text: string): CompileResult {
  const close = text.lastIndexOf("/");
  const pattern = text.slice(1, close);
  const flags = text.slice(close + 1);
  if (!JS_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    return refuse(
      `regex trigger ${text} has unsupported flags "${flags}"`,
      "Only i, m, s and u are allowed, each once (matching is already case-blind).",
    );
  }
  if (pattern.length > MAX_REGEX_LENGTH) {
    return refuse(
      `regex trigger is ${pattern.length} characters (max ${MAX_REGEX_LENGTH})`,
      "Split it into several triggers.",
    );
  }
  const dotAll = flags.includes("s");
  const multiline = flags.includes("m");
  try {
    // Only parsed, never run: the syntax check keeps a trigger meaning what it means in JavaScript.
    new RegExp(pattern, `iu${dotAll ? "s" : ""}${multiline ? "m" : ""}`);
  } catch (error) {
    return refuse(
      `regex trigger ${text} is not a valid JavaScript regular expression (read with the u flag): ${(error as Error).message}`,
      "Fix the regular expression (escape literal { } [ ] ( ) and -, which Unicode mode requires), or write a plain phrase.",
    );
  }
  const translated = toRe2Syntax(pattern);
  if (!translated.ok) {
    return refuse(
      `regex trigger ${text} uses ${translated.feature}, which needs a backtracking engine`,
      "Rewrite it without look-arounds (?= ?! ?<= ?<! and back-references \\1 \\k<name>: several triggers, exclusions, or a plain phrase say the same).",
    );
  }
  // RE2 takes tens of milliseconds to expand `a{1,999}a{1,999}b`; a skill file can hold hundreds.
  const atLeast = minimumSteps(pattern);
  if (atLeast > MAX_REGEX_PROGRAM) return tooLarge(text, `at least ${atLeast}`);
  let regex: RE2JS;
  try {
    const { RE2JS } = re2js();
    regex = RE2JS.compile(
      translated.pattern,
      RE2JS.CASE_INSENSITIVE | (dotAll ? RE2JS.DOTALL : 0) | (multiline ? RE2JS.MULTILINE : 0),
    );
  } catch (error) {
    return refuse(
      `regex trigger ${text} cannot run on the linear-time engine (RE2): ${reason(error)}`,
      "Use the syntax RE2 shares with JavaScript (no \\c escapes, no [\\b], \\p{…} with a general category or Script=…), or write a plain phrase.",
    );
  }
  const size = regex.programSize();
  if (size > MAX_REGEX_PROGRAM) return tooLarge(text, String(size));
  if (regex.test("")) {
    return refuse(
      `regex trigger ${text} matches an empty message, so it would fire on every message`,
      "Make it require at least one character (+ instead of *, no empty alternative).",
    );
  }
  return {
    ok: true,
    trigger: {
      source: text,
      kind: "regex",
      engine: "re2",
      programSize: size,
      anchor: undefined,
      test: (input) => {
        const subject =
          input.normalized.length > MAX_REGEX_INPUT
            ? input.normalized.slice(0, MAX_REGEX_INPUT)
            : input.normalized;
        // Only the whole match is read: RE2 then never runs a second pass for the groups.
        const matcher = regex.matcher(subject);
        const matched = matcher.find() ? matcher.group() : null;
        // An empty match (`\bx*`) is no evidence that the message is about anything.
        return matched ? matched : undefined;
      },
    },
  };
}

function refuse(error: string, hint: string): CompileResult {
  return { ok: false, error, hint };
}

function tooLarge(text: string, steps: string): CompileResult {
  return refuse(
    `regex trigger ${text} compiles to ${steps} steps (max ${MAX_REGEX_PROGRAM})`,
    "Make it smaller: a bounded repeat copies what it repeats ({0,20} is twenty copies), so use smaller bounds, or split it into several triggers.",
  );
}

function reason(error: unknown): string {
  return (error as Error).message.replace(/^error parsing regexp: /u, "");
}

type Translation = { ok: true; pattern: string } | { ok: false; feature: string };

const HEX = /^[0-9a-fA-F]{4}$/u;
/** Property prefixes JavaScript requires and RE2 does not know (`Script_Extensions` means something else, and stays refused). */
const PROPERTY_PREFIX = /^(?:Script|sc|General_Category|gc)=/u;

/**
 * The pattern (valid JavaScript, Unicode mode) in RE2's spelling, or the backtracking feature
 * it uses. Only escapes and class brackets differ; everything else is copied.
 */
export function toRe2Syntax(pattern: string): Translation {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && (/[1-9]/u.test(next) || next === "k"))
        return { ok: false, feature: "a back-reference" };
      if (next === "u") {
        const written = unicodeEscape(pattern, i);
        if (written) {
          out += `\\x{${written.hex}}`;
          i = written.end - 1;
          continue;
        }
      }
      if ((next === "p" || next === "P") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3);
        if (end !== -1) {
          out += `\\${next}{${pattern.slice(i + 3, end).replace(PROPERTY_PREFIX, "")}}`;
          i = end;
          continue;
        }
      }
      out += char + next;
      i++;
    } else if (inClass) {
      // RE2 reads `[:alpha:]` inside a class as a POSIX class; JavaScript reads `[` literally.
      if (char === "[") out += "\\[";
      else {
        if (char === "]") inClass = false;
        out += char;
      }
    } else if (char === "[") {
      // JavaScript's `[]` matches nothing and `[^]` anything; RE2 reads `]` there as a member.
      if (pattern.startsWith("[]", i)) {
        out += "[^\\x{0}-\\x{10FFFF}]";
        i += 1;
      } else if (pattern.startsWith("[^]", i)) {
        out += "[\\x{0}-\\x{10FFFF}]";
        i += 2;
      } else {
        inClass = true;
        const negated = pattern[i + 1] === "^";
        out += negated ? "[^" : "[";
        if (negated) i++;
      }
    } else if (char === "(" && /^\(\?(?:[=!]|<[=!])/u.test(pattern.slice(i, i + 4))) {
      return { ok: false, feature: pattern[i + 2] === "<" ? "a lookbehind" : "a lookahead" };
    } else out += char;
  }
  return { ok: true, pattern: out };
}

/** `\uXXXX` (a surrogate pair written as two becomes one code point) or `\u{X…}` at `at`. */
function unicodeEscape(pattern: string, at: number): { hex: string; end: number } | undefined {
  if (pattern[at + 2] === "{") {
    const end = pattern.indexOf("}", at + 3);
    return end === -1 ? undefined : { hex: pattern.slice(at + 3, end), end: end + 1 };
  }
  const first = pattern.slice(at + 2, at + 6);
  if (!HEX.test(first)) return undefined;
  const high = Number.parseInt(first, 16);
  if (high >= 0xd800 && high <= 0xdbff && pattern.startsWith("\\u", at + 6)) {
    const second = pattern.slice(at + 8, at + 12);
    const low = HEX.test(second) ? Number.parseInt(second, 16) : 0;
    if (low >= 0xdc00 && low <= 0xdfff) {
      const point = ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
      return { hex: point.toString(16), end: at + 12 };
    }
  }
  return { hex: first, end: at + 6 };
}

const COUNTED_REPEAT = /\{(\d+)(?:(,)(\d*))?\}/y;

/**
 * A lower bound of RE2's program size for `pattern` (valid JavaScript, Unicode mode), read
 * without compiling: every character, class or assertion is at least one step in each copy
 * its repeats make, and an alternation at least its longest branch (RE2 may merge branches'
 * common prefixes, never shorten the longest one).
 */
export function minimumSteps(pattern: string): number {
  let i = 0;
  const alternation = (): number => {
    let longest = sequence();
    while (pattern[i] === "|") {
      i++;
      longest = Math.max(longest, sequence());
    }
    return longest;
  };
  const sequence = (): number => {
    let total = 0;
    while (i < pattern.length && pattern[i] !== "|" && pattern[i] !== ")") {
      const steps = atom();
      total += steps * copies();
    }
    return total;
  };
  const atom = (): number => {
    const char = pattern[i] as string;
    if (char === "(") {
      i++;
      if (pattern[i] === "?") {
        // (?: (?<name> (?= (?! (?<= (?<! (?i-m: — the group's body starts after its prefix.
        const named = pattern[i + 1] === "<" && pattern[i + 2] !== "=" && pattern[i + 2] !== "!";
        i = named ? pattern.indexOf(">", i) + 1 : firstOf(pattern, ":=!", i) + 1;
      }
      const steps = alternation();
      i++;
      return steps;
    }
    if (char === "[") {
      i++;
      if (pattern[i] === "^") i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      i++;
      return 1;
    }
    if (char === "\\") {
      const kind = pattern[i + 1] ?? "";
      i += 2;
      if ("upP".includes(kind) && pattern[i] === "{") i = pattern.indexOf("}", i) + 1;
      else if (kind === "u") {
        // The low half of a surrogate pair written as two escapes is part of the one before.
        const code = Number.parseInt(pattern.slice(i, i + 4), 16);
        i += 4;
        if (code >= 0xdc00 && code <= 0xdfff) return 0;
      } else if (kind === "x") i += 2;
      else if (kind === "c") i += 1;
      return 1;
    }
    const code = pattern.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    return 1;
  };
  const copies = (): number => {
    const char = pattern[i];
    let count = 1;
    if (char === "*" || char === "+" || char === "?") i++;
    else if (char === "{") {
      COUNTED_REPEAT.lastIndex = i;
      const m = COUNTED_REPEAT.exec(pattern);
      if (!m) return 1;
      i = COUNTED_REPEAT.lastIndex;
      const min = Number(m[1]);
      count = m[2] === undefined ? min : m[3] === "" ? Math.max(min, 1) : Number(m[3]);
    } else return 1;
    if (pattern[i] === "?") i++;
    return count;
  };
  return alternation();
}

function firstOf(text: string, chars: string, from: number): number {
  for (let i = from; i < text.length; i++) if (chars.includes(text[i] as string)) return i;
  return text.length;
}
