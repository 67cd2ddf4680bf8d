/**
 * A command line as the shell (or a program's string literal) puts its words together
 * before any path exists: `.ag'ents'`, `.ag\ents`, `$'\x2eagents'`, `'.age' + 'nts'`,
 * `D=.age; ${D}nts`. The write protection reads this spelling beside the typed one, so a
 * folder cut into pieces is still seen whole. Reading more words together can only make it
 * refuse more, never less (the typed spelling is still checked on its own).
 */

/** `$'…'`: the shell decodes its escapes (`\x2e`, `\056`, `\u002e`). */
const ANSI_C = /\$'((?:[^'\\]|\\[\s\S])*)'/g;
const ANSI_ESCAPE = /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|[\s\S])/g;
/** Two string literals joined by `+` or side by side (`'a' + 'b'`, Python's `'a' 'b'`). */
const CONCATENATION = /(['"])[ \t]*\+?[ \t]*(['"])/g;
const ESCAPED = /\\([^\n])/g;
/** A backslash at the end of a line: the shell joins the two lines into one word. */
const CONTINUATION = /\\\r?\n/g;
/** A simple assignment: `NAME=value`, the value plain or in quotes. */
const ASSIGNMENT = /(?<![\w$])([A-Za-z_][A-Za-z0-9_]*)=(?:'([^']*)'|"([^"`\\]*)"|([^\s;&|'"`()<>]*))/g;
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

function decodeAnsiC(body: string): string {
  return body.replace(ANSI_ESCAPE, (whole, code: string) => {
    const c = code[0]!;
    if (c === "x" || c === "u" || c === "U") {
      const point = Number.parseInt(code.slice(1), 16);
      return point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    }
    if (c >= "0" && c <= "7") return String.fromCharCode(Number.parseInt(code, 8) & 0xff);
    if (c === "n") return "\n";
    if (c === "t") return "\t";
    return code;
  });
}

/** Simple assignments in `text` (`NAME=value`), for the words that use them. */
function assignments(text: string): Map<string, string> | undefined {
  if (!text.includes("=")) return undefined;
  const values = new Map<string, string>();
  for (const m of text.matchAll(ASSIGNMENT)) values.set(m[1]!, m[2] ?? m[3] ?? m[4] ?? "");
  return values.size > 0 ? values : undefined;
}

/** Where concatenated literals met: a join, like a quote inside a word. */
const JOIN = "\u0000";
const SPELLED = /['"\\$\u0000]/;
/** A quote, escape or join between two characters of one word: the shell runs them together. */
const MERGED = /[^\s'"`;&|<>()=,+\\\u0000]['"\\\u0000]+[^\s'"`;&|<>()=,+\u0000]|\$'/g;
/** A variable, where the text assigns some. */
const USED = /\$\{?[A-Za-z_]/g;
const JOINED_OUT = /['"\u0000]/g;
const SPACE = /\s/;

/** The whitespace-separated word of `text` around `at`, and where it starts and ends. */
function wordAt(text: string, at: number): [string, number, number] {
  let start = at;
  while (start > 0 && !SPACE.test(text[start - 1]!)) start--;
  let end = at;
  while (end < text.length && !SPACE.test(text[end]!)) end++;
  return [text.slice(start, end), start, end];
}

/**
 * The words around `positions` (in increasing order), each once: a position inside the word
 * read last is skipped unread, so a long word with many matches is scanned once, not once
 * per match (a line of minified code is one word full of quotes and braces).
 */
function* wordsAround(text: string, positions: Iterable<number>): Generator<[string, number]> {
  let lastEnd = -1;
  for (const at of positions) {
    if (at < lastEnd) continue;
    const [word, start, end] = wordAt(text, at);
    lastEnd = end;
    yield [word, start];
  }
}

function* matchPositions(text: string, pattern: RegExp, shift = 0): Generator<number> {
  for (const m of text.matchAll(pattern)) yield m.index + shift;
}

/**
 * The words of `text` that the shell (or a string literal) joins into something the typed
 * words do not show, joined. Found by one scan for where parts meet (a quote or escape
 * inside a word, `$'…'`, a variable), so a file of code whose quotes only wrap its words
 * (`"./lib/m.js";`) costs that scan and nothing more.
 */
export function shellJoinedWords(text: string): string[] {
  const out = new Set<string>();
  for (const [, , word, joined] of joinedWords(text)) if (joined !== "" && joined !== word) out.add(joined);
  return [...out];
}

/**
 * `text` with each word that `shellJoinedWords` reads put together as the shell puts it
 * (`cd $H; rm -rf my''-skills` after `H=$HOME` is `cd $HOME; rm -rf my-skills`), so what
 * reads the words in their order (a `cd` before them) reads the joined ones too.
 */
export function shellJoinedText(text: string): string {
  const words = joinedWords(text);
  if (words.length === 0) return text;
  return spliced(
    words[0]![4],
    words.map(([start, end, , joined]) => [start, end, joined] as const),
  ).replace(JOINED_OUT, "");
}

/** Each word read, in the order of the text: start, end, as typed, joined, and the text they are in. */
function joinedWords(text: string): Array<[number, number, string, string, string]> {
  if (!SPELLED.test(text)) return [];
  const values = assignments(text);
  const glued = text.replace(CONCATENATION, JOIN).replace(CONTINUATION, JOIN);
  const taken = new Map<number, [number, number, string, string, string]>();
  const take = ([word, start]: [string, number]) => {
    if (taken.has(start)) return;
    const substituted = values
      ? word.replace(
          VARIABLE,
          (whole, braced?: string, bare?: string) => values.get(braced ?? bare!) ?? whole,
        )
      : word;
    const joined = substituted
      .replace(ANSI_C, (_, body: string) => decodeAnsiC(body))
      .replace(ESCAPED, "$1")
      .replace(JOINED_OUT, "");
    taken.set(start, [start, start + word.length, word, joined, glued]);
  };
  for (const word of wordsAround(glued, matchPositions(glued, MERGED, 1))) take(word);
  if (values) for (const word of wordsAround(glued, matchPositions(glued, USED))) take(word);
  return [...taken.values()].sort((x, y) => x[0] - y[0]);
}

/** `text` with the spans (in order, apart) replaced. */
function spliced(text: string, spans: ReadonlyArray<readonly [number, number, string]>): string {
  const parts: string[] = [];
  let at = 0;
  for (const [start, end, replacement] of spans) {
    parts.push(text.slice(at, start), replacement);
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** `{a,b}`: the first comma group of a word, without nesting. */
const BRACE_GROUP = /\{([^{}\s'"]*,[^{}\s'"]*)\}/;
const BRACE_ANYWHERE = /\{[^{}\s'"]*(?:,|\.\.)[^{}\s'"]*\}/g;
/** `{a..z}`, `{1..9..2}`: letters or digits only, so a wildcard that never spells a dot. */
const SEQUENCE = /\{-?\w+\.\.-?\w+(?:\.\.-?\d+)?\}/g;
/** Past this many spellings of one word, the caller's wildcard reading stands alone. */
const MAX_BRACE_VARIANTS = 64;

/**
 * Each word of `text` with a brace the shell expands, in every spelling it expands to
 * (`{.agents,x}/skills` is `.agents/skills` and `x/skills`; a sequence is read as `*`).
 * A word with more spellings than the limit is left to the caller's wildcard reading.
 */
export function braceExpansions(text: string): string[] {
  const out = new Set<string>();
  for (const [, , spelled] of bracedWords(text)) for (const w of spelled) out.add(w);
  return [...out];
}

/** `text` with each brace word replaced by its spellings side by side (`{a,b}/x` is `a/x b/x`). */
export function braceExpandedText(text: string): string {
  const words = bracedWords(text);
  if (words.length === 0) return text;
  return spliced(
    text,
    words.map(([start, end, spelled]) => [start, end, spelled.join(" ")] as const),
  );
}

/** Each brace word the limit lets be spelled out, in order: start, end, spellings. */
function bracedWords(text: string): Array<[number, number, string[]]> {
  const out: Array<[number, number, string[]]> = [];
  for (const [word, start] of wordsAround(text, matchPositions(text, BRACE_ANYWHERE))) {
    const queue = [word.replace(SEQUENCE, "*")];
    const spelled: string[] = [];
    while (queue.length > 0 && spelled.length + queue.length <= MAX_BRACE_VARIANTS) {
      const next = queue.pop()!;
      const group = BRACE_GROUP.exec(next);
      if (!group) spelled.push(next);
      else {
        const before = next.slice(0, group.index);
        const after = next.slice(group.index + group[0].length);
        for (const part of group[1]!.split(",")) queue.push(before + part + after);
      }
    }
    if (queue.length === 0) out.push([start, start + word.length, spelled]);
  }
  return out;
}
