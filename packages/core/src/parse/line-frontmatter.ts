/**
 * The fastest path for the common frontmatter, read line by line: `key: value` pairs whose
 * values are one-line flow collections (lists, and mappings with quoted keys such as
 * `{"emoji": "x", "requires": {"bins": ["curl"]}}`, nested) or scalars (plain, possibly
 * continued on more-indented lines, single- or double-quoted on one line, with `''` or `\"`
 * and `\\` inside), `|`/`>` block scalars with clip or strip chomping, or, under a key with
 * nothing after its colon, an indented list of such scalars (`- item`, also at the key's own
 * indentation) or an indented mapping of such pairs (`metadata:`), nested a few levels.
 * Nineteen in twenty of the mirror's frontmatters are only that.
 *
 * Why a third reader: js-yaml's event parser (fast-frontmatter.ts) is general, and reading
 * the mirror's 15,000 frontmatters with it costs ≈ 0.4 s of a fresh process's CPU, a fifth
 * of the load. This reader looks at each line once and gives up (undefined) on anything
 * outside the shapes above: a tab or a control character anywhere, a comment, a flow
 * mapping with a plain key, an anchor, alias, tag or directive, a quoted scalar holding
 * an escape other than `\"` and `\\` or spanning lines, a plain scalar holding `: ` or ` #`
 * or ending in `:`, a value starting with a YAML indicator, a block scalar with an indentation
 * indicator, keep chomping, trailing spaces or more-indented folded lines, a list of
 * mappings, an indentation other than its block's. What it reads, it reads into the values
 * the event reader builds (fast-values.ts), typed by the same core-schema tests, with each
 * key's offset where it starts, so parseSkill's result is the same whichever reader took the
 * file (line-frontmatter.test.ts compares them on the whole mirror, the corpus, the edge
 * cases and mutations; fast-frontmatter.test.ts compares both with `yaml`'s Document).
 */
import { type FastValue, fastFrontmatter, fastPair, typedPlain, YamlMap } from "./fast-values.js";
import { plainScalarValue } from "./plain-scalar.js";
import type { Frontmatter, FrontmatterPair } from "./yaml-frontmatter.js";

/**
 * What this reader never reads: tabs, control characters (C0 but the newline, DEL, C1),
 * Unicode line and paragraph separators, BOMs, non-characters, lone surrogates. The YAML
 * parsers treat some of these as breaks or errors; the general path decides.
 */
const UNUSUAL = /[\0-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
/** Any surrogate: most texts have none, and the lone-surrogate test is slow (its lookbehind). */
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Keys longer than this go to the other readers (`yaml` has its own limit on implicit keys). */
const MAX_KEY_LENGTH = 256;
/** Deeper nesting goes to the other readers (real frontmatter nests 2–3 deep). */
const MAX_NESTING = 8;

const SPACE = 0x20;
const COLON = 0x3a;
const DASH = 0x2d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const PIPE = 0x7c;
const GREATER = 0x3e;
const BACKSLASH = 0x5c;

/** Thrown inside the reader when the frontmatter needs another reader. */
const GIVE_UP = Symbol("give up");

/** The frontmatter's top-level pairs, or undefined when the line shapes above do not cover it. */
export function readLineFrontmatter(yaml: string): Frontmatter | undefined {
  if (UNUSUAL.test(yaml) || (SURROGATE.test(yaml) && LONE_SURROGATE.test(yaml))) return undefined;
  const reader = new LineReader(yaml.split("\n"));
  const pairs: FrontmatterPair[] = [];
  try {
    reader.mapping(0, 0, (key, value, at) => pairs.push(fastPair(key, value, at)));
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
  return reader.line < reader.lines.length || pairs.length === 0 ? undefined : fastFrontmatter(pairs);
}

class LineReader {
  /** The next line to read, and where it starts in the YAML. */
  line = 0;
  offset = 0;

  constructor(readonly lines: readonly string[]) {}

  private advance(): void {
    this.offset += this.lines[this.line]!.length + 1;
    this.line++;
  }

  private skipBlank(): void {
    while (this.line < this.lines.length && isBlank(this.lines[this.line]!)) this.advance();
  }

  /** The indentation of the next non-blank line (blank lines skipped), or -1 at the end. */
  private nextIndent(): number {
    this.skipBlank();
    return this.line < this.lines.length ? skipSpaces(this.lines[this.line]!, 0) : -1;
  }

  /** The `key: value` lines at `indent`, up to the first line indented less (or the end). */
  mapping(indent: number, depth: number, onPair: (key: string, value: FastValue, at: number) => void): void {
    for (;;) {
      const lineIndent = this.nextIndent();
      if (lineIndent < indent) return;
      if (lineIndent > indent) throw GIVE_UP;
      const text = this.lines[this.line]!;
      const colon = keyEnd(text, indent);
      if (colon === -1) throw GIVE_UP;
      const at = this.offset + indent;
      const key = text.slice(indent, colon);
      onPair(key, this.valueAfter(text, colon + 1, indent, depth), at);
    }
  }

  /**
   * The value starting at `start` of the current line (after a key's colon or a list's dash),
   * whose block is indented more than `indent`; the reader ends after its last line.
   */
  private valueAfter(text: string, start: number, indent: number, depth: number): FastValue {
    const valueStart = skipSpaces(text, start);
    this.advance();
    if (valueStart === text.length) return this.block(indent, depth + 1);
    const first = text.charCodeAt(valueStart);
    if (first === PIPE || first === GREATER) return this.blockScalar(text, valueStart, indent);
    return this.scalar(text, valueStart, indent);
  }

  /** What follows a key with nothing after its colon: null, a list, a mapping or a plain scalar. */
  private block(indent: number, depth: number): FastValue {
    if (depth > MAX_NESTING) throw GIVE_UP;
    const start = this.line;
    const startOffset = this.offset;
    const inner = this.nextIndent();
    if (inner === -1 || inner < indent) return this.rewind(start, startOffset);
    const text = this.lines[this.line]!;
    const isItem =
      text.charCodeAt(inner) === DASH && (inner + 1 === text.length || text.charCodeAt(inner + 1) === SPACE);
    // A list may sit at its key's own indentation (`key:` then `- item` lines); nothing else may.
    if (inner === indent && !isItem) return this.rewind(start, startOffset);
    if (isItem) return this.list(inner);
    if (keyEnd(text, inner) !== -1) {
      const pairs: Array<[string, FastValue, number]> = [];
      this.mapping(inner, depth, (key, value, at) => pairs.push([key, value, at]));
      return new YamlMap(pairs);
    }
    // A plain scalar starting on the line below its key.
    return this.scalar(text, inner, indent, true);
  }

  private rewind(line: number, offset: number): null {
    this.line = line;
    this.offset = offset;
    return null;
  }

  /** `- item` lines at `indent`, each item a scalar or flow list (no lists of mappings). */
  private list(indent: number): FastValue[] {
    const items: FastValue[] = [];
    for (;;) {
      const start = this.line;
      const startOffset = this.offset;
      const lineIndent = this.nextIndent();
      if (lineIndent < indent) return items;
      if (lineIndent > indent) throw GIVE_UP;
      const text = this.lines[this.line]!;
      if (text.charCodeAt(indent) !== DASH) {
        // The end of a list at its key's indentation: the key's mapping goes on.
        if (items.length > 0) {
          this.rewind(start, startOffset);
          return items;
        }
        throw GIVE_UP;
      }
      if (text.charCodeAt(indent + 1) !== SPACE) throw GIVE_UP; // `-` alone, or `-x`
      const valueStart = skipSpaces(text, indent + 1);
      if (valueStart === text.length) throw GIVE_UP;
      const first = text.charCodeAt(valueStart);
      if (first === PIPE || first === GREATER || first === DASH) throw GIVE_UP;
      this.advance();
      items.push(this.scalar(text, valueStart, indent));
    }
  }

  /**
   * A scalar from `start` of `text` (a line already read past, unless `onLine`): a flow list
   * or a quoted scalar on this line, or a plain scalar continued on the lines below indented
   * more than `indent`.
   */
  private scalar(text: string, start: number, indent: number, onLine = false): FastValue {
    if (onLine) this.advance();
    const end = trimmedEnd(text, start);
    const first = text.charCodeAt(start);
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) {
      this.noContinuation(indent);
      return quoted(text, start, end);
    }
    if (first === OPEN_BRACKET || first === OPEN_BRACE) {
      // The line's offset in the YAML: `text` is the line just read past, unless `onLine`.
      const lineOffset = this.offset - text.length - 1;
      this.noContinuation(indent);
      return flowCollection(text, start, end, lineOffset);
    }
    if (INDICATOR[first] === 1 && !(first === DASH && isPlainSafe(text.charCodeAt(start + 1)))) throw GIVE_UP;
    let value = plainPart(text.slice(start, end));
    // Continuation lines: each is folded into one space, each blank line between into a newline.
    let blanks = 0;
    for (;;) {
      const line = this.line;
      const offset = this.offset;
      const lineIndent = this.nextIndent();
      if (lineIndent <= indent) {
        this.rewind(line, offset);
        break;
      }
      const next = this.lines[this.line]!;
      if (INDICATOR[next.charCodeAt(lineIndent)] === 1) throw GIVE_UP;
      blanks = this.line - line;
      value += blanks === 0 ? " " : "\n".repeat(blanks);
      value += plainPart(next.slice(lineIndent, trimmedEnd(next, lineIndent)));
      this.advance();
    }
    const typed = typedPlain(value);
    if (typed === undefined) throw GIVE_UP;
    return typed;
  }

  /** After a one-line value, the next non-blank line must not be indented into it. */
  private noContinuation(indent: number): void {
    const line = this.line;
    const offset = this.offset;
    if (this.nextIndent() > indent) throw GIVE_UP;
    this.rewind(line, offset);
  }

  /**
   * A `|` or `>` block scalar whose header is at `start` of `text`, with clip (no sign) or
   * strip (`-`) chomping and its indentation taken from its first line; its lines are the
   * ones indented more than `indent`.
   */
  private blockScalar(text: string, start: number, indent: number): string {
    const literal = text.charCodeAt(start) === PIPE;
    const header = text.slice(start, trimmedEnd(text, start));
    if (header.length > 2 || (header.length === 2 && header.charCodeAt(1) !== DASH)) throw GIVE_UP;
    const strip = header.length === 2;
    const lines: string[] = [];
    let blockIndent = -1;
    let trailingBlank = 0;
    while (this.line < this.lines.length) {
      const line = this.lines[this.line]!;
      if (line.length === 0) {
        trailingBlank++;
        lines.push("");
        this.advance();
        continue;
      }
      const lineIndent = skipSpaces(line, 0);
      if (lineIndent === line.length || line.charCodeAt(line.length - 1) === SPACE) throw GIVE_UP; // spaces that may be content
      if (blockIndent === -1) {
        if (lineIndent <= indent) break;
        blockIndent = lineIndent;
      }
      if (lineIndent < blockIndent) {
        if (lineIndent > indent) throw GIVE_UP;
        break;
      }
      // More-indented folded lines keep their breaks: the general readers' business.
      if (!literal && lineIndent > blockIndent) throw GIVE_UP;
      trailingBlank = 0;
      lines.push(line.slice(blockIndent));
      this.advance();
    }
    // The blank lines after the last content line belong to what follows.
    for (let k = 0; k < trailingBlank; k++) {
      lines.pop();
      this.line--;
      this.offset -= 1;
    }
    if (lines.length === 0 || blockIndent === -1) throw GIVE_UP; // an empty block scalar
    let content: string;
    if (literal) {
      content = lines.join("\n");
    } else {
      content = "";
      let blanks = 0;
      let started = false;
      for (const line of lines) {
        if (line === "") {
          blanks++;
          continue;
        }
        if (started) content += blanks === 0 ? " " : "\n".repeat(blanks);
        else content += "\n".repeat(blanks);
        content += line;
        started = true;
        blanks = 0;
      }
    }
    return strip ? content : `${content}\n`;
  }
}

/**
 * A quoted scalar on one line, from its opening quote at `start` to its closing one before
 * `end`. Inside, a single-quoted scalar may double its quote (`''` is `'`) and a double-quoted
 * one may escape its quote or a backslash (`\"`, `\\`); any other escape, or a quote that
 * ends the scalar before the line's end, is the other readers' business.
 */
function quoted(text: string, start: number, end: number): string {
  const quote = text.charCodeAt(start);
  if (end - start < 2 || text.charCodeAt(end - 1) !== quote) throw GIVE_UP;
  const inner = text.slice(start + 1, end - 1);
  return quote === DOUBLE_QUOTE ? doubleQuotedText(inner) : singleQuotedText(inner);
}

function singleQuotedText(inner: string): string {
  if (!inner.includes("'")) return inner;
  const parts = inner.split("''");
  for (const part of parts) if (part.includes("'")) throw GIVE_UP;
  return parts.join("'");
}

function doubleQuotedText(inner: string): string {
  if (!inner.includes("\\")) {
    if (inner.includes('"')) throw GIVE_UP;
    return inner;
  }
  let text = "";
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner.charCodeAt(i);
    if (c === DOUBLE_QUOTE) throw GIVE_UP;
    if (c !== BACKSLASH) continue;
    const escaped = inner.charCodeAt(i + 1);
    if (escaped !== DOUBLE_QUOTE && escaped !== BACKSLASH) throw GIVE_UP;
    text += inner.slice(from, i);
    from = i + 1; // the escaped character is kept
    i++;
  }
  return text + inner.slice(from);
}

/** One line's text of a plain scalar, refused when YAML would read more than text in it. */
function plainPart(text: string): string {
  if (text.includes(": ") || text.includes(" #") || text.charCodeAt(text.length - 1) === COLON) throw GIVE_UP;
  return text;
}

/**
 * A one-line flow collection from its `[` or `{` at `start` to `end` (just after its closing
 * bracket): lists `[a, 'b', "c"]` and mappings `{"k": v, 'l': [x]}`, nested, whose scalars are
 * one-line quoted ones or plain ones without the flow indicators (`[`, `]`, `{`, `}`, `,`).
 * Refused: an empty item or value, a trailing comma, a mapping key that is not quoted or
 * not followed at once by its `:`, a key written twice in one mapping (its copies' offsets
 * are the other readers' to report), a single-pair mapping inside a list (`[a: b]`),
 * anything after the collection. `lineOffset` is where the line starts in the YAML.
 */
function flowCollection(line: string, start: number, end: number, lineOffset: number): FastValue {
  const reader = new FlowReader(line, end, lineOffset);
  const value = reader.collection(start, 0);
  if (reader.at !== end) throw GIVE_UP;
  return value;
}

class FlowReader {
  /** The next character to read. */
  at = 0;

  constructor(
    readonly line: string,
    readonly end: number,
    readonly lineOffset: number,
  ) {}

  private skipSpaces(): number {
    this.at = skipSpaces(this.line, this.at);
    if (this.at >= this.end) throw GIVE_UP;
    return this.line.charCodeAt(this.at);
  }

  /** The collection whose opening bracket is at `from`. */
  collection(from: number, depth: number): FastValue {
    if (depth > MAX_NESTING) throw GIVE_UP;
    const mapping = this.line.charCodeAt(from) === OPEN_BRACE;
    const close = mapping ? CLOSE_BRACE : CLOSE_BRACKET;
    this.at = from + 1;
    const items: FastValue[] = [];
    const pairs: Array<[string, FastValue, number]> = [];
    if (this.skipSpaces() === close) {
      this.at++;
      return mapping ? new YamlMap(pairs) : items;
    }
    for (;;) {
      if (mapping) {
        const keyAt = this.at;
        const first = this.line.charCodeAt(keyAt);
        if (first !== DOUBLE_QUOTE && first !== SINGLE_QUOTE) throw GIVE_UP;
        const key = this.quotedItem();
        // Long keys are the other readers' (`yaml` has its own limit on implicit keys).
        if (this.at - keyAt > MAX_KEY_LENGTH || this.line.charCodeAt(this.at) !== COLON) throw GIVE_UP;
        this.at++;
        this.skipSpaces();
        const value = this.item(depth);
        for (const pair of pairs) if (pair[0] === key) throw GIVE_UP;
        // A quoted key's offset is its text's, after the quote, as js-yaml gives it.
        pairs.push([key, value, this.lineOffset + keyAt + 1]);
      } else {
        items.push(this.item(depth));
      }
      const next = this.skipSpaces();
      this.at++;
      if (next === close) return mapping ? new YamlMap(pairs) : items;
      if (next !== COMMA) throw GIVE_UP; // `"a" b`, `["a": b]`, `{"k": v "l"}`…
      if (this.skipSpaces() === close) throw GIVE_UP; // a trailing comma
    }
  }

  /** A value inside the collection, starting at the reader's position. */
  private item(depth: number): FastValue {
    const first = this.line.charCodeAt(this.at);
    if (first === OPEN_BRACKET || first === OPEN_BRACE) return this.collection(this.at, depth + 1);
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) return this.quotedItem();
    if (INDICATOR[first] === 1) throw GIVE_UP; // also `,` `]` `}`: an empty item
    let itemEnd = this.at;
    while (itemEnd < this.end && FLOW_STOP[this.line.charCodeAt(itemEnd)] !== 1) itemEnd++;
    const text = this.line.slice(this.at, trimmedEnd(this.line, this.at, itemEnd));
    this.at = itemEnd;
    const item = typedPlain(plainPart(text));
    if (item === undefined) throw GIVE_UP;
    return item;
  }

  /** A quoted scalar from its opening quote at the reader's position to the next such quote. */
  private quotedItem(): string {
    const quote = this.line.indexOf(this.line.charCodeAt(this.at) === DOUBLE_QUOTE ? '"' : "'", this.at + 1);
    if (quote === -1 || quote >= this.end) throw GIVE_UP;
    const text = quoted(this.line, this.at, quote + 1);
    this.at = quote + 1;
    return text;
  }
}

/**
 * Where the key starting at `from` ends (its colon), or -1: a key is a letter or `_` and
 * then letters, digits, `_` and `-`, not read as null or a boolean, and its colon is
 * followed by a space or the end of the line.
 */
function keyEnd(line: string, from: number): number {
  if (!isKeyStart(line.charCodeAt(from))) return -1;
  let end = from + 1;
  while (end < line.length && isKeyPart(line.charCodeAt(end))) end++;
  if (end - from > MAX_KEY_LENGTH || line.charCodeAt(end) !== COLON) return -1;
  if (end + 1 < line.length && line.charCodeAt(end + 1) !== SPACE) return -1;
  // `null:`, `True:` … are not string keys; `yaml` stringifies them its own way.
  return typeof plainScalarValue(line.slice(from, end)) === "string" ? end : -1;
}

/** Characters that start YAML syntax rather than a plain scalar (or may, as `-`, `?`, `:` do). */
const INDICATOR = new Uint8Array(128);
for (const c of "-?:,[]{}#&*!|>'\"%@`") INDICATOR[c.charCodeAt(0)] = 1;

/** What ends a plain item in a flow list (or makes it something this reader does not read). */
const FLOW_STOP = new Uint8Array(128);
for (const c of ",[]{}") FLOW_STOP[c.charCodeAt(0)] = 1;

/** A character after a leading `-` that keeps a block plain scalar plain (`-x`, `-1`). */
function isPlainSafe(c: number): boolean {
  return c > SPACE && c !== COLON && INDICATOR[c] !== 1;
}

function isKeyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isKeyPart(c: number): boolean {
  return isKeyStart(c) || (c >= 0x30 && c <= 0x39) || c === DASH;
}

function isBlank(line: string): boolean {
  return skipSpaces(line, 0) === line.length;
}

function skipSpaces(line: string, from: number): number {
  let i = from;
  while (line.charCodeAt(i) === SPACE) i++;
  return i;
}

/** `end` moved back over trailing spaces, not before `start`. */
function trimmedEnd(line: string, start: number, end = line.length): number {
  let i = end;
  while (i > start && line.charCodeAt(i - 1) === SPACE) i--;
  return i;
}
