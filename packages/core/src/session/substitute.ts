/**
 * What an activated skill reads: its body with the arguments filled in (Claude Code's
 * placeholders), and today's date, because "last week" means nothing to a model that
 * does not know when "now" is (seed 001).
 */

/**
 * Split an argument string like a shell would, without the shell: whitespace separates,
 * "double" or 'single' quotes group, a backslash escapes a quote inside double quotes.
 */
export function splitArguments(args: string): string[] {
  const parts: string[] = [];
  let current = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && (args[i + 1] === '"' || args[i + 1] === "\\"))
        current += args[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) parts.push(current);
      current = "";
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) parts.push(current);
  return parts;
}

export interface SubstituteOptions {
  /** The raw argument string ("/name <args>" or the `args` of an activation call). */
  args?: string;
  /** Names for `$name`, by position (the skill's `arguments`). */
  argumentNames?: readonly string[];
  /**
   * A typed skill's checked arguments: `$name` is the value of the parameter `name` (text as
   * it is, anything else as JSON), and `$ARGUMENTS` is `args` (their JSON).
   */
  values?: Readonly<Record<string, unknown>>;
  /** Fill `${SKILL_DIR}` / `${CLAUDE_SKILL_DIR}`. */
  skillDir?: string;
  /**
   * Fill `$0`, `$1`, …. Off for skills that take no arguments: real bodies are full of
   * prices like "$5.00" and "$50B", which must survive untouched.
   */
  positional?: boolean;
}

/**
 * The most text the arguments may add to a body: past it, placeholders stay as written (a
 * hostile body repeating `$ARGUMENTS` 90,000 times made a 4,000-character argument a 359 MB
 * prompt).
 */
export const MAX_SUBSTITUTED_CHARS = 100_000;

const NAME = /^[\p{L}_][\p{L}\p{N}_-]*$/u;
// After `$name`, a letter, digit, `_` or `-` means a longer word ("$issue-like"), except in
// scripts written without spaces: "$主题的文章" is `$主题` followed by more text.
const NAME_CONTINUES = String.raw`(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}_-]`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Fill `$ARGUMENTS`, `$ARGUMENTS[N]` and `$N` (0-based), `$name` and `${SKILL_DIR}`.
 * `\$` before a placeholder keeps it literal; a `$` that is no placeholder is left alone.
 * When the body has no argument placeholder and arguments were given, they are appended
 * as "ARGUMENTS: …" so they are never lost.
 */
export function substituteArguments(body: string, options: SubstituteOptions = {}): string {
  const args = options.args ?? "";
  const parts = splitArguments(args);
  const values = options.values;
  const typedNames = values ? Object.keys(values) : [];
  const positionalNames = (options.argumentNames ?? []).filter((n) => NAME.test(n));
  const names = [...new Set([...positionalNames, ...typedNames.filter((n) => NAME.test(n))])];
  const namePattern = [...names]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");
  const pattern = new RegExp(
    String.raw`(\\?)\$(?:ARGUMENTS\[(\d+)\]|(ARGUMENTS)(?![\p{L}\p{N}_])|\{(SKILL_DIR|CLAUDE_SKILL_DIR)\}|(\d+)(?![\p{L}\p{N}_]|\.\d)` +
      (namePattern ? `|(${namePattern})(?!${NAME_CONTINUES})` : "") +
      ")",
    "gu",
  );
  let usedArguments = false;
  let added = 0;
  const text = body.replace(
    pattern,
    (
      match: string,
      escaped: string,
      index: string | undefined,
      all: string | undefined,
      dir: string | undefined,
      position: string | undefined,
      name: string | undefined,
    ) => {
      let value: string | undefined;
      let isArgument = true;
      if (index !== undefined) value = parts[Number(index)] ?? "";
      else if (all !== undefined) value = args;
      else if (dir !== undefined) {
        isArgument = false;
        value = options.skillDir;
      } else if (position !== undefined)
        value = options.positional ? (parts[Number(position)] ?? "") : undefined;
      else if (name !== undefined)
        value =
          values && Object.hasOwn(values, name)
            ? valueText(values[name])
            : (parts[positionalNames.indexOf(name)] ?? "");
      if (value === undefined) return match;
      if (escaped) return match.slice(1);
      if (isArgument) usedArguments = true;
      // A hostile body repeating a placeholder would multiply the arguments into the prompt.
      added += value.length;
      return added > MAX_SUBSTITUTED_CHARS ? match : value;
    },
  );
  if (!usedArguments && args.trim() !== "") return `${text.trimEnd()}\n\nARGUMENTS: ${args.trim()}`;
  return text;
}

/** A parameter's value in the body: text as written, numbers and structures as JSON. */
function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value) ?? "";
}

const dateFormats = new Map<
  string,
  { date: Intl.DateTimeFormat; weekday: Intl.DateTimeFormat; zone: string }
>();

function formatsFor(timeZone: string | undefined) {
  const key = timeZone ?? "";
  let formats = dateFormats.get(key);
  if (!formats) {
    const date = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formats = {
      date,
      weekday: new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long" }),
      zone: date.resolvedOptions().timeZone,
    };
    dateFormats.set(key, formats);
  }
  return formats;
}

// The line is asked for on every plan of every step; formatting two dates costs more than the
// rest of a replan. Every time zone changes day on a whole minute, so one line per minute is exact.
const dateLines = new Map<string, { minute: number; line: string }>();

/** "Today is Monday, 2026-11-30 (Europe/Paris). …" in the given (default: local) time zone. */
export function currentDateLine(now: Date, timeZone?: string): string {
  const key = timeZone ?? "";
  const minute = Math.floor(now.getTime() / 60_000);
  const cached = dateLines.get(key);
  if (cached?.minute === minute) return cached.line;
  const { date, weekday, zone } = formatsFor(timeZone);
  const line = `Today is ${weekday.format(now)}, ${date.format(now)} (${zone}). Resolve relative dates such as "yesterday", "last week" or "this month" from this date.`;
  if (dateLines.size > 64) dateLines.clear();
  dateLines.set(key, { minute, line });
  return line;
}
