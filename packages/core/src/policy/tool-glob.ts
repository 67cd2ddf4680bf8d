/**
 * Globs over tool names that match whole words, so a whitelist glob cannot admit a tool
 * whose name merely starts with a harmless word (`read_*` must not admit
 * `read_and_delete_mail`). A tool name's words are split at `_`, `-`, `.`, `/`, `:`,
 * spaces and camelCase humps (`readAndDeleteMail` is read, And, Delete, Mail).
 *
 * - `*` is at most one whole word: `read_*` admits `read_file`, `read*` admits `read_file`
 *   and `readFile`, neither admits `read_and_delete_mail` nor `ready`.
 * - `**` is any number of whole words: `read_**` admits `read_and_delete_mail`.
 * - a `*` that is a whole `__` segment is anything within that segment, as in Claude Code's
 *   `mcp__github__*` (every tool of the github server); `*` alone admits every tool.
 * - `{a,b}` is either alternative. Everything else is literal and case-sensitive.
 */

export type ToolMatcher = (tool: string) => boolean;

/** More alternatives than this from `{…}` and the glob admits nothing (a hostile file's `{a,b}{c,d}…`). */
const MAX_ALTERNATIVES = 64;

export function isToolGlob(pattern: string): boolean {
  return pattern.includes("*") || /\{[^{}]*,[^{}]*\}/.test(pattern);
}

type Token = { text: string } | { star: "word" | "words" | "segment" };

export function compileToolGlob(pattern: string): ToolMatcher {
  const alternatives = expandBraces(pattern);
  if (alternatives === undefined) return () => false;
  const compiled = alternatives.map(tokenize);
  return (tool) => {
    const bounds = wordBoundaries(tool);
    return compiled.some((tokens) => matches(tokens, tool, bounds));
  };
}

/** `a{b,c}d{e,f}` → abde, abdf, acde, acdf; undefined past MAX_ALTERNATIVES. */
function expandBraces(pattern: string): string[] | undefined {
  const open = pattern.indexOf("{");
  if (open === -1) return [pattern];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) commas.push(i);
  }
  if (close === -1 || commas.length === 0) {
    // Not a group: the brace is literal.
    const rest = expandBraces(pattern.slice(open + 1));
    return rest?.map((r) => pattern.slice(0, open + 1) + r);
  }
  const options: string[] = [];
  let start = open + 1;
  for (const comma of [...commas, close]) {
    options.push(pattern.slice(start, comma));
    start = comma + 1;
  }
  const tails = expandBraces(pattern.slice(close + 1));
  if (tails === undefined) return undefined;
  const out: string[] = [];
  for (const option of options) {
    const heads = expandBraces(option);
    if (heads === undefined) return undefined;
    for (const head of heads) {
      for (const tail of tails) {
        out.push(pattern.slice(0, open) + head + tail);
        if (out.length > MAX_ALTERNATIVES) return undefined;
      }
    }
  }
  return out;
}

function tokenize(pattern: string): Token[] {
  if (/^\*+$/.test(pattern)) return [{ star: "words" }];
  const tokens: Token[] = [];
  let text = "";
  for (let i = 0; i < pattern.length; ) {
    if (pattern[i] !== "*") {
      text += pattern[i++];
      continue;
    }
    let end = i;
    while (pattern[end] === "*") end++;
    const alone =
      (i === 0 || pattern.endsWith("__", i)) && (end === pattern.length || pattern.startsWith("__", end));
    if (text !== "") tokens.push({ text });
    text = "";
    tokens.push({ star: end - i > 1 ? "words" : alone ? "segment" : "word" });
    i = end;
  }
  if (text !== "") tokens.push({ text });
  return tokens;
}

const SEPARATORS = new Set(["_", "-", ".", "/", ":", " "]);
const isSeparator = (c: string | undefined) => c !== undefined && SEPARATORS.has(c);
const isUpper = (c: string | undefined) => c !== undefined && c !== c.toLowerCase() && c === c.toUpperCase();
const isLower = (c: string | undefined) => c !== undefined && c !== c.toUpperCase() && c === c.toLowerCase();
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** bounds[i]: a word starts or ends at offset i (the ends, separators, camelCase humps). */
function wordBoundaries(name: string): boolean[] {
  const bounds = new Array<boolean>(name.length + 1).fill(false);
  bounds[0] = true;
  bounds[name.length] = true;
  for (let i = 1; i < name.length; i++) {
    const before = name[i - 1];
    const at = name[i];
    bounds[i] =
      isSeparator(before) ||
      isSeparator(at) ||
      ((isLower(before) || isDigit(before)) && isUpper(at)) ||
      (isUpper(before) && isUpper(at) && isLower(name[i + 1]));
  }
  return bounds;
}

/** May a star of this kind stand for name[start, end)? Both ends are word boundaries. */
function covers(
  kind: "word" | "words" | "segment",
  name: string,
  bounds: boolean[],
  start: number,
  end: number,
): boolean {
  if (kind === "words") return true;
  if (kind === "segment") return !name.slice(start, end).includes("__");
  // One word at most: separators may sit at its edges, nothing may split it inside.
  let a = start;
  let b = end;
  while (a < b && isSeparator(name[a])) a++;
  while (b > a && isSeparator(name[b - 1])) b--;
  for (let i = a + 1; i < b; i++) if (bounds[i] || isSeparator(name[i])) return false;
  return true;
}

function matches(tokens: Token[], name: string, bounds: boolean[]): boolean {
  // (token, offset) pairs already known to fail: linear in both, whatever the pattern.
  const failed = new Set<number>();
  const width = name.length + 1;
  const at = (t: number, pos: number): boolean => {
    if (t === tokens.length) return pos === name.length;
    const key = t * width + pos;
    if (failed.has(key)) return false;
    const token = tokens[t]!;
    let ok = false;
    if ("text" in token) {
      ok = name.startsWith(token.text, pos) && at(t + 1, pos + token.text.length);
    } else if (bounds[pos]) {
      for (let end = pos; end <= name.length && !ok; end++) {
        if (bounds[end] && covers(token.star, name, bounds, pos, end)) ok = at(t + 1, end);
      }
    }
    if (!ok) failed.add(key);
    return ok;
  };
  return at(0, 0);
}
