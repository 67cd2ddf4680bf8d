/**
 * What stage 1 reads of a skill's body: its first {@link BODY_HEAD_CHARS} characters without
 * fenced code blocks, URLs, runs of 32 or more characters without a space (paths, hashes,
 * base64), and lines met before in them.
 *
 * The body's start is where skills put their overview and routing tables (dotnet dev recall@1
 * 60.5 → 76.7 with it); the code, links and repeated lines there are noise for routing, and
 * they were a third of what the mirror's first match read: 21.9 M → 15.0 M characters, with
 * the dotnet dev figures unchanged (bench/RESULTS.md, "Round 9, BODYCAP";
 * bench/routing-body-variants.ts's "no code, URLs, long runs, lines once").
 *
 * A loader keeps this text of each body (lazy-body.ts), so the index reads no file and the
 * kept starts shrink by as much. Changing what it returns changes the index's terms: bump
 * STAGE1_TERMS_VERSION (a prebuilt shelf's stored terms are then refused, not mixed).
 */

/** How much of a body is looked at: the first this many UTF-16 units. */
export const BODY_HEAD_CHARS = 3_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const URL = /\b(?:https?|ftp):\/\/\S+/g;
/**
 * `/\S{32,}/g`, tried only where a run starts: without the look-behind the engine tries 32
 * characters from every position, which was most of this module's time on the mirror's 8,224
 * starts (≈ 0.5 s of CPU at load, against ≈ 0.15 s).
 */
const LONG_RUN = /(?<!\S)\S{32,}/g;

/**
 * The body's first {@link BODY_HEAD_CHARS} UTF-16 code units, and one more when the last is
 * the first half of a surrogate pair: half a pair would not survive the round trip through
 * UTF-8 (a loader keeps the text as UTF-8).
 */
export function bodyHead(body: string): string {
  if (body.length <= BODY_HEAD_CHARS) return body;
  const last = body.charCodeAt(BODY_HEAD_CHARS - 1);
  return body.slice(0, last >= 0xd800 && last <= 0xdbff ? BODY_HEAD_CHARS + 1 : BODY_HEAD_CHARS);
}

/** The text stage 1 reads of `body` (see the module's comment). */
export function indexedBodyText(body: string): string {
  return indexedText(bodyHead(body));
}

/**
 * {@link indexedBodyText} of a body whose {@link bodyHead} is `head`: equal to `head` when
 * nothing is left out (each step is skipped when a native search finds nothing for it).
 */
export function indexedText(head: string): string {
  let text = head;
  if (text.includes("```") || text.includes("~~~")) text = withoutFencedCode(text);
  if (text.includes("://")) text = text.replace(URL, " ");
  return linesOnce(text.replace(LONG_RUN, " "));
}

/**
 * The lines outside fenced code blocks: from a line opening with ``` or ~~~ (up to three
 * spaces before) to the line closing it with at least as many of the same character, both
 * included; a block still open at the end runs to the end.
 */
function withoutFencedCode(text: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (open?.[1]?.startsWith(fence)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    kept.push(line);
  }
  return kept.join("\n");
}

/** Each non-blank line once (compared without the spaces around it), blank lines kept. */
function linesOnce(text: string): string {
  const seen = new Set<string>();
  let kept: string[] | undefined;
  let from = 0;
  for (;;) {
    const newline = text.indexOf("\n", from);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(from, end);
    const key = line.trim();
    if (key !== "" && seen.has(key)) {
      // The first repeat: every line before it is kept, as written.
      kept ??= [text.slice(0, from - 1)];
    } else {
      if (key !== "") seen.add(key);
      kept?.push(line);
    }
    if (newline === -1) break;
    from = newline + 1;
  }
  return kept === undefined ? text : kept.join("\n");
}
