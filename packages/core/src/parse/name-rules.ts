/**
 * The Agent Skills name rules, as the reference validator (skills-ref) applies them:
 * NFKC-normalised, 1–64 characters, lower-case Unicode letters, digits and hyphens,
 * no hyphen at either end, no two hyphens in a row, equal to the skill's folder name.
 */
import { NAME_MAX_LENGTH } from "./limits.js";

export type NameProblem =
  | { code: "name-too-long"; message: string }
  | { code: "invalid-name"; message: string };

/** Unicode letters and numbers (Python's str.isalnum) plus the hyphen. */
const NAME_CHARACTERS = /^[\p{L}\p{N}-]*$/u;

export function normalizeName(name: string): string {
  return name.trim().normalize("NFKC");
}

/** Length in code points, as the spec (written against Python) counts it. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Every rule `name` breaks (empty when it is valid). `name` should be normalised first. */
export function checkName(name: string): NameProblem[] {
  const problems: NameProblem[] = [];
  if (name.length === 0) return [{ code: "invalid-name", message: "`name` is empty" }];
  // UTF-16 length ≥ code points, so the exact count is only needed past the limit.
  const length = name.length > NAME_MAX_LENGTH ? codePointLength(name) : name.length;
  if (length > NAME_MAX_LENGTH) {
    problems.push({
      code: "name-too-long",
      message: `\`name\` is ${length} characters; the limit is ${NAME_MAX_LENGTH}`,
    });
  }
  if (name !== name.toLowerCase()) {
    problems.push({ code: "invalid-name", message: `\`name\` "${name}" must be lower-case` });
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    problems.push({
      code: "invalid-name",
      message: `\`name\` "${name}" must not start or end with a hyphen`,
    });
  }
  if (name.includes("--")) {
    problems.push({
      code: "invalid-name",
      message: `\`name\` "${name}" must not contain consecutive hyphens`,
    });
  }
  if (!NAME_CHARACTERS.test(name)) {
    problems.push({
      code: "invalid-name",
      message: `\`name\` "${name}" contains characters other than letters, digits and hyphens`,
    });
  }
  return problems;
}

/** A suggestion for the hint: the name made valid (lower-case, spaces and symbols → hyphens). */
export function suggestName(name: string): string {
  return name
    .normalize("NFKC")
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1-$2")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, NAME_MAX_LENGTH);
}
