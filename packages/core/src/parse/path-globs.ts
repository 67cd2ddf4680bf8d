/**
 * What Claude Code's `paths` field means for matching: a skill that lists path globs is for
 * those files, so it is a stage-1 candidate only when the conversation names a file that
 * matches one of them. A skill without `paths` is never affected.
 *
 * The rule:
 * - the files are the paths mentioned in the user's message (`mentionedPaths`) plus any the
 *   host reports as touched; with none, a `paths` skill is not a candidate;
 * - a mentioned path is a token holding a `/` (`src/app.ts`, `./docs/`, `C:\x\y.md` read with
 *   `/`) or a file name with an extension (`package.json`); quotes, backquotes, brackets and
 *   trailing punctuation around it are dropped, and a leading `./` or `/` too, since globs are
 *   relative to the project;
 * - a glob matches the whole path (picomatch's meaning, dotfiles included, run on RE2 so a
 *   hostile glob cannot stall the host: glob-re2.ts); a glob without a `/` (`*.py`,
 *   `Dockerfile`) matches the file name at any depth, as in `.gitignore`.
 *
 * Bounded for hostile input: at most 64 mentioned paths of at most 512 characters are taken
 * from a message; what a skill's globs may cost to compile and to match is path-glob-budget.ts.
 */
import type { SkillMeta } from "../types.js";
import { compileGlob, type GlobTest } from "./glob-re2.js";
import { admitGlobs, MAX_MATCH_WORK } from "./path-glob-budget.js";

const MAX_MENTIONED_PATHS = 64;
const MAX_PATH_LENGTH = 512;

/** Runs of characters a path can hold; everything else (spaces, quotes, brackets, commas) separates. */
const PATH_TOKEN = /[\p{L}\p{N}_.\-~/\\@+*=#%$:]+/gu;
const EXTENSION = /^\p{L}[\p{L}\p{N}]{0,9}$/u;
const DOTFILE = /^\.\p{L}[\p{L}\p{N}_.-]*$/u;
const ENDS_IN_NAME_CHARACTER = /[\p{L}\p{N}_-]$/u;
const TRAILING_PUNCTUATION = ".:,;";

/**
 * A file name with an extension (`package.json`) or a dotfile (`.env`), not a version
 * (`v1.2`). Checked around the last `.` with anchored, linear tests: tokens may be hostile.
 */
function isFileName(token: string): boolean {
  const dot = token.lastIndexOf(".");
  if (dot === 0) return DOTFILE.test(token);
  if (dot < 0) return false;
  return EXTENSION.test(token.slice(dot + 1)) && ENDS_IN_NAME_CHARACTER.test(token.slice(0, dot));
}

function trimTrailingPunctuation(token: string): string {
  let end = token.length;
  while (end > 0 && TRAILING_PUNCTUATION.includes(token[end - 1]!)) end--;
  return token.slice(0, end);
}

/** The file paths a message mentions, normalised (`/` separators, no leading `./` or `/`), in order, once each. */
export function mentionedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATH_TOKEN)) {
    if (found.size >= MAX_MENTIONED_PATHS) break;
    let token = match[0];
    // An abbreviation (`e.g.`, `i.e.`) is not a file name.
    if (token.length > MAX_PATH_LENGTH || /^(?:\p{L}\.){2,}$/u.test(token)) continue;
    token = trimTrailingPunctuation(token.replaceAll("\\", "/"));
    // A URL is not a project file.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) continue;
    token = token.replace(/^[A-Za-z]:\//, "").replace(/^(?:\.\/|\/)+/, "");
    if (token === "" || token === "." || token === "..") continue;
    if (token.includes("/") ? /[\p{L}\p{N}]/u.test(token) : isFileName(token)) found.add(token);
  }
  return [...found];
}

interface CompiledGlobTest {
  test: GlobTest;
  cost: number;
}

/** Compiled tests per skill's glob list (the list is the skill's own, so it is the key). */
const compiled = new WeakMap<readonly string[], CompiledGlobTest[]>();

function testsFor(globs: readonly string[]): CompiledGlobTest[] {
  let tests = compiled.get(globs);
  if (tests === undefined) {
    tests = admitGlobs(globs).admitted.map(({ pattern, cost }) => ({
      test: compileGlob(pattern, { basename: !pattern.includes("/") }),
      cost,
    }));
    compiled.set(globs, tests);
  }
  return tests;
}

/**
 * Whether a skill may be a candidate given the files in play: always for a skill without
 * `paths`; for one with `paths`, only when one of `files` matches one of its admitted globs
 * within one plan's work budget (path-glob-budget.ts).
 */
export function matchesSkillPaths(skill: Pick<SkillMeta, "paths">, files: readonly string[]): boolean {
  const globs = skill.paths;
  if (globs === undefined || globs.length === 0) return true;
  if (files.length === 0) return false;
  const tests = testsFor(globs);
  let work = 0;
  for (const file of files) {
    for (const { test, cost } of tests) {
      work += cost * (file.length + 1);
      if (work > MAX_MATCH_WORK) return false;
      if (test(file)) return true;
    }
  }
  return false;
}
