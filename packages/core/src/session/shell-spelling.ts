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
const QUOTES = /['"]/g;
/** A simple assignment: `NAME=value`, the value plain or in quotes. */
const ASSIGNMENT = /(?<![\w$])([A-Za-z_][A-Za-z0-9_]*)=(?:'([^']*)'|"([^"$`\\]*)"|([^\s;&|'"`$()<>]*))/g;
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

/** Simple variables replaced by what they were assigned in the same text (one pass). */
function withVariables(text: string): string {
  if (!text.includes("=") || !text.includes("$")) return text;
  const values = new Map<string, string>();
  for (const m of text.matchAll(ASSIGNMENT)) values.set(m[1]!, m[2] ?? m[3] ?? m[4] ?? "");
  if (values.size === 0) return text;
  return text.replace(
    VARIABLE,
    (whole, braced?: string, bare?: string) => values.get(braced ?? bare!) ?? whole,
  );
}

/** The text with its words joined as the shell joins them; the same string when nothing joins. */
export function shellJoined(text: string): string {
  if (!/['"\\$]/.test(text)) return text;
  return withVariables(text)
    .replace(ANSI_C, (_, body: string) => decodeAnsiC(body))
    .replace(CONCATENATION, "")
    .replace(ESCAPED, "$1")
    .replace(QUOTES, "");
}
