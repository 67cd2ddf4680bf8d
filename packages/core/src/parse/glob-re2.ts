/**
 * A skill's `paths` globs, compiled for RE2 (the linear-time engine regex triggers run on).
 * The globs come from a skill file, which may be hostile, and picomatch compiles them to
 * backtracking JavaScript regexes: `*a*a*a*b`, or `**` four times over, takes seconds on one
 * long path, and a message may mention 64 paths on every model call. RE2 runs any of them in
 * time linear in the path.
 *
 * The meaning is picomatch's with `dot: true` (what skills were matched with): `*` is any run
 * of characters within a segment (a whole-segment `*` at least one), `?` one character, `**` as
 * a whole segment any number of segments, `[…]` a class (`[!…]`/`[^…]` negated), `{a,b}`
 * either and `{1..3}` a range, `(a|b)` a group, `@(…)` `?(…)` `+(…)` `*(…)` the extglobs, a
 * leading `!` negates the glob, and a path that is the glob's own text matches it. What needs a look-ahead (`!(…)`, a negated extglob) cannot run on RE2: such a glob
 * matches nothing. No glob matches a path with a `.` or `..` segment (picomatch's `*` and `**`
 * never match one either; globs are relative to the project).
 */
import type { RE2JS } from "re2js";
import { re2js } from "../deferred-libraries.js";

/** Expanded `{a..b}` ranges larger than this stay literal text. */
const MAX_RANGE = 256;

class Unsupported extends Error {}
class OverLength extends Error {}

/**
 * Characters the `{a..b}` ranges of the glob being translated may still expand to (the only
 * part of a glob whose regex grows faster than the glob): past it, translating stops, so judging
 * a glob too costly costs no more than an admitted one. Set only by `globRegexCost`.
 */
let expansionLeft = Number.POSITIVE_INFINITY;

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;
const literal = (text: string) => text.replace(REGEX_SPECIAL, "\\$&");

/** The index of the bracket closing the one at `open`, at the same depth, or -1. */
function closing(glob: string, open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === opener) depth++;
    else if (glob[i] === closer && --depth === 0) return i;
  }
  return -1;
}

/** Split at top-level `separator`s (not inside `{}` or `()`). */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "(") depth++;
    else if ((c === "}" || c === ")") && depth > 0) depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function range(body: string): string | undefined {
  const m = /^(-?\d+)\.\.(-?\d+)$/.exec(body) ?? /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  if (!m) return undefined;
  const numeric = /\d/.test(m[1]!);
  const from = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  if (Math.abs(to - from) >= MAX_RANGE) return undefined;
  // At least one character and a `|` per item: past the budget, it is known before building it.
  if (2 * (Math.abs(to - from) + 1) + 3 > expansionLeft) throw new OverLength();
  const step = from <= to ? 1 : -1;
  const items: string[] = [];
  for (let v = from; v !== to + step; v += step)
    items.push(literal(numeric ? String(v) : String.fromCharCode(v)));
  const expanded = `(?:${items.join("|")})`;
  expansionLeft -= expanded.length;
  if (expansionLeft < 0) throw new OverLength();
  return expanded;
}

/** The regex of a glob fragment (no `/` handling of `**` segments: see `translate`). */
function fragment(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const next = glob[i + 1];
    if (next === "(" && "@?+*!".includes(c)) {
      const end = closing(glob, i + 1, "(", ")");
      if (end > 0) {
        if (c === "!") throw new Unsupported();
        const body = splitTop(glob.slice(i + 2, end), "|")
          .map(fragment)
          .join("|");
        out += `(?:${body})${c === "@" ? "" : c}`;
        i = end;
        continue;
      }
    }
    if (c === "(") {
      // A group, as picomatch passes it to the regex: `(a|b)` is either.
      const end = closing(glob, i, "(", ")");
      if (end > 0) {
        out += `(?:${splitTop(glob.slice(i + 1, end), "|")
          .map(fragment)
          .join("|")})`;
        i = end;
        continue;
      }
    }
    if (c === "*") {
      while (glob[i + 1] === "*") i++; // `**` inside a segment is a `*`
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      const body = glob.slice(i + 1, end);
      const inClass = (text: string) => text.replace(/[\\\]^[]/g, "\\$&");
      if (body.startsWith("^")) out += `[^/${inClass(body.slice(1))}]`;
      // picomatch reads `[!…]` as that text itself, or one of its characters (`!` included).
      else if (body.startsWith("!")) out += `(?:${literal(`[${body}]`)}|[${inClass(body)}])`;
      else out += `[${inClass(body)}]`;
      i = end;
    } else if (c === "{") {
      const end = closing(glob, i, "{", "}");
      const body = end > 0 ? glob.slice(i + 1, end) : "";
      const alternatives = end > 0 ? splitTop(body, ",") : [];
      const expanded = end > 0 ? range(body) : undefined;
      if (expanded) out += expanded;
      else if (alternatives.length > 1) out += `(?:${alternatives.map(translate).join("|")})`;
      else {
        out += "\\{";
        continue;
      }
      i = end;
    } else out += literal(c);
  }
  return out;
}

/** The regex of a glob: its segments, `**` segments spanning any number of segments. */
function translate(glob: string): string {
  const segments = splitTop(glob, "/");
  let out = "";
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === "**") {
      // Leading or middle `**/`: zero or more whole segments; a trailing `/**`: the folder itself or anything below it.
      if (last) out = index === 0 ? ".*" : `${out.slice(0, -1)}(?:/.*)?`;
      else out += "(?:[^/]+/)*";
      return;
    }
    out += segment === "*" ? "[^/]+" : fragment(segment);
    if (!last) out += "/";
  });
  return out;
}

export type GlobTest = (path: string) => boolean;

const NEVER: GlobTest = () => false;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;

const isNegated = (glob: string) => glob.startsWith("!") && !glob.startsWith("!(");

/** The RE2 regex a glob compiles to; throws when it cannot be written without a look-ahead. */
function regexSourceOf(glob: string): string {
  // picomatch also takes a path with a trailing `/`.
  return `^(?:${translate(isNegated(glob) ? glob.slice(1) : glob)})/?$`;
}

/** The RE2 regex a glob compiles to, or undefined when it cannot be written without a look-ahead. */
function globRegexSource(glob: string): string | undefined {
  try {
    return regexSourceOf(glob);
  } catch {
    return undefined;
  }
}

/**
 * The length of the RE2 regex a glob compiles to, judged before RE2 is asked to compile it (text
 * only); 0 for a glob that compiles to nothing (it needs a look-ahead), and Infinity as soon as
 * it is known to pass `maxLength`.
 */
export function globRegexCost(glob: string, maxLength: number): number {
  expansionLeft = maxLength;
  try {
    return regexSourceOf(glob).length;
  } catch (error) {
    return error instanceof OverLength ? Number.POSITIVE_INFINITY : 0;
  } finally {
    expansionLeft = Number.POSITIVE_INFINITY;
  }
}

/**
 * A test for one glob (backslashes already read as `/`, no leading `./` or `/`); `basename`:
 * match the last segment of the path (a glob without a `/`, as in `.gitignore`).
 */
export function compileGlob(glob: string, options: { basename: boolean }): GlobTest {
  const negated = isNegated(glob);
  const pattern = negated ? glob.slice(1) : glob;
  let regex: RE2JS;
  try {
    const { RE2JS } = re2js();
    const source = globRegexSource(glob);
    if (source === undefined) return NEVER;
    regex = RE2JS.compile(source);
  } catch {
    // Not a regex RE2 compiles: matches nothing.
    return NEVER;
  }
  return (path) => {
    if (DOT_SEGMENT.test(path)) return false;
    let subject = path;
    if (options.basename) {
      const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
      subject = trimmed.slice(trimmed.lastIndexOf("/") + 1);
    }
    // As picomatch: a path that is the glob's own text matches it.
    const hit = subject === pattern || path === pattern || regex.matches(subject);
    return hit !== negated;
  };
}
