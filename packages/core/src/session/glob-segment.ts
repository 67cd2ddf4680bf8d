/**
 * One path segment of a shell glob (`*`, `?`, `[…]`) against one segment of a protected
 * folder, to tell whether the shell could expand a word into that folder. The pattern is
 * the model's, the name a short folder name: a two-pointer match, linear in both for each
 * `*`, so no pattern can make it backtrack for long. As the shell does, a wildcard at the
 * start does not match a leading dot; a bracket it cannot read matches any one character
 * (fail closed).
 */

const GLOB_CHARS = /[*?[]/;

export function hasGlob(word: string): boolean {
  return GLOB_CHARS.test(word);
}

type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "set"; test: (c: string) => boolean };

function tokens(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") {
      if (out.at(-1)?.kind !== "star") out.push({ kind: "star" });
    } else if (c === "?") out.push({ kind: "any" });
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) {
        out.push({ kind: "any" });
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      const ranges: Array<[string, string]> = [];
      for (let j = 0; j < body.length; j++) {
        if (body[j + 1] === "-" && j + 2 < body.length) {
          ranges.push([body[j]!, body[j + 2]!]);
          j += 2;
        } else ranges.push([body[j]!, body[j]!]);
      }
      out.push({ kind: "set", test: (ch) => ranges.some(([lo, hi]) => ch >= lo && ch <= hi) !== negated });
      i = close;
    } else out.push({ kind: "char", char: c });
  }
  return out;
}

function one(token: Token, c: string): boolean {
  if (token.kind === "any") return true;
  if (token.kind === "char") return token.char === c;
  return token.kind === "set" && token.test(c);
}

export function globSegmentMatches(pattern: string, name: string): boolean {
  const list = tokens(pattern);
  if (name.startsWith(".") && !(list[0]?.kind === "char" && list[0].char === ".")) return false;
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = list[p];
    if (token && token.kind !== "star" && one(token, name[n]!)) {
      p++;
      n++;
    } else if (token?.kind === "star") {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (list[p]?.kind === "star") p++;
  return p === list.length;
}
