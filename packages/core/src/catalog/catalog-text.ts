/**
 * The catalog's text, put together from one joined text of the usage order's lines.
 *
 * A new request's catalog is its few candidates' lines, then the usage order's lines without
 * them: most of its ≈ 80 lines (≈ 18 K characters) are the same run of the same order on every
 * request. Joining them again per request was most of the catalog's cost (a join of 80 lines
 * costs several times a copy of one text of that length). So the order's first lines are
 * joined once, per usage order and entry form, and a catalog takes slices of that text: a
 * slice of a run of consecutive lines between the candidates. The text is the same string
 * (`render` of the same lines); V8 keeps it as a few pieces until it is first read whole,
 * which copies it once.
 */
import type { Skill } from "../types.js";

/** The usage order's first lines, joined ("\n" between), and where each starts and ends. */
interface JoinedLines {
  /** The entry cap the lines were cut to (a line depends on its skill and the cap alone). */
  cap: number;
  text: string;
  starts: number[];
  ends: number[];
}

const joined = new WeakMap<readonly Skill[], JoinedLines>();
/**
 * Lines joined past the furthest one asked for: another request's candidates, taken out of
 * the run, move its end by a few. (No more than that: an activation changes the usage order,
 * and the next catalog joins the new order's lines again.)
 */
const SLACK_LINES = 16;

/**
 * The joined lines of `order` covering position `upTo` (joined again, twice as far, when a
 * catalog needs a line past them).
 */
function joinedLines(
  order: readonly Skill[],
  upTo: number,
  cap: number,
  lineOf: (skill: Skill) => string,
): JoinedLines {
  let j = joined.get(order);
  if (j && j.cap === cap && upTo < j.starts.length) return j;
  const count = Math.min(
    order.length,
    Math.max(upTo + 1 + SLACK_LINES, j?.cap === cap ? 2 * j.starts.length : 0),
  );
  const lines: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const line = lineOf(order[i] as Skill);
    lines.push(line);
    starts.push(at);
    at += line.length;
    ends.push(at);
    at += 1;
  }
  j = { cap, text: lines.join("\n"), starts, ends };
  joined.set(order, j);
  return j;
}

/**
 * `heading`, the candidates' lines, the lines of `order` at `positions` (ascending), and the
 * `tail` lines, "\n" between each: `[heading, ...lines, ...tail].join("\n")`.
 */
export function catalogText(
  heading: string,
  firstLines: readonly string[],
  order: readonly Skill[],
  positions: readonly number[],
  tail: readonly string[],
  cap: number,
  lineOf: (skill: Skill) => string,
): string {
  let text = heading;
  for (const line of firstLines) text += `\n${line}`;
  if (positions.length > 0) {
    const j = joinedLines(order, positions[positions.length - 1] as number, cap, lineOf);
    let from = positions[0] as number;
    let to = from;
    for (let k = 1; k <= positions.length; k++) {
      const p = positions[k];
      if (p === to + 1) {
        to = p;
        continue;
      }
      text += `\n${j.text.slice(j.starts[from] as number, j.ends[to] as number)}`;
      if (p === undefined) break;
      from = p;
      to = p;
    }
  }
  for (const line of tail) text += `\n${line}`;
  return text;
}
