/**
 * What a skill's `paths` globs may cost the host. The globs come from a skill file, which may
 * be hostile, and RE2 is linear but not free: compiling costs microseconds per character of
 * the regex a glob becomes (a 256-character glob of `{1..255}` ranges is a 29,000-character
 * regex: ≈ 75 ms each, seconds for 32), and matching costs about the regex's size times the
 * path's length (32 globs of `*a*a…` over 64 mentioned paths of 512 characters: ≈ 40 ms on
 * every plan the skill is a candidate in).
 *
 * So two bounds, both failing closed (a glob past them matches nothing, and a skill with
 * `paths` is a candidate only through a glob that matches):
 * - at load, a skill's globs are admitted in order while the regexes they become fit in
 *   `MAX_SKILL_GLOB_REGEX` characters (and within the count and length caps); each glob
 *   refused is reported on the `paths` line. The same rule runs again wherever the globs are
 *   compiled, so a skill restored from a prebuilt shelf gets no more than one loaded from its file;
 * - per plan, testing one skill's globs against the files in play may do
 *   `MAX_MATCH_WORK` units of work (a glob's regex length × the length of the path it is tried
 *   on); a match that would lie past that is not looked for.
 * A skill's usual globs (`src/**\/*.{ts,tsx}`: 40 characters of regex) are far inside both.
 */
import { globRegexCost } from "./glob-re2.js";
import type { Report } from "./report.js";

export const MAX_GLOBS = 32;
export const MAX_GLOB_LENGTH = 256;
/** Characters of RE2 regex all of one skill's globs may compile to (≈ 25 usual globs). */
export const MAX_SKILL_GLOB_REGEX = 1_024;
/** Regex characters × path characters one skill's globs may be tried over in one plan (≈ 0.5 ms). */
export const MAX_MATCH_WORK = 8_000_000;

export interface AdmittedGlob {
  /** As written, backslashes read as `/`, no leading `./` or `/`. */
  pattern: string;
  /** The length of its RE2 regex: what one character of a path costs to try it on. */
  cost: number;
}

export interface RefusedGlob {
  /** 1-based position in the skill's list. */
  position: number;
  glob: string;
  why: string;
}

export interface GlobAdmission {
  admitted: AdmittedGlob[];
  refused: RefusedGlob[];
}

/** Which of a skill's globs may be compiled, and why the others may not. */
export function admitGlobs(globs: readonly string[]): GlobAdmission {
  const admitted: AdmittedGlob[] = [];
  const refused: RefusedGlob[] = [];
  let spent = 0;
  for (let i = 0; i < globs.length; i++) {
    const glob = globs[i]!;
    const position = i + 1;
    if (i >= MAX_GLOBS) {
      refused.push({ position, glob, why: `a skill may list ${MAX_GLOBS} globs` });
      continue;
    }
    if (glob.length > MAX_GLOB_LENGTH) {
      refused.push({ position, glob, why: `it is longer than ${MAX_GLOB_LENGTH} characters` });
      continue;
    }
    const pattern = glob.replaceAll("\\", "/").replace(/^(?:\.\/|\/)+/, "");
    if (pattern === "") continue;
    const left = MAX_SKILL_GLOB_REGEX - spent;
    const cost = globRegexCost(pattern, left);
    if (cost > left) {
      refused.push({
        position,
        glob,
        why: `its regex would pass the ${MAX_SKILL_GLOB_REGEX.toLocaleString("en-US")} characters a skill's globs may compile to together (${spent.toLocaleString("en-US")} taken by the globs before it)`,
      });
      continue;
    }
    spent += cost;
    admitted.push({ pattern, cost });
  }
  return { admitted, refused };
}

/**
 * Report each glob of a skill's `paths` that is refused, on the field's line. A warning in
 * either mode: the refusal already leaves the skill safe, and it stays usable otherwise.
 */
export function reportRefusedGlobs(report: Report, globs: readonly string[], line: () => number): void {
  const { refused } = admitGlobs(globs);
  for (const refusal of refused) {
    const shown = refusal.glob.length > 40 ? `${refusal.glob.slice(0, 40)}…` : refusal.glob;
    report.add(
      "warning",
      "paths-over-budget",
      `\`paths\` glob ${refusal.position} (\`${shown}\`) matches no file: ${refusal.why}`,
      line(),
    );
  }
}
