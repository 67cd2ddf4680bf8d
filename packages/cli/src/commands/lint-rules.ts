/**
 * Lint checks on one skill at a time: is its description specific enough to route on,
 * does it say what it is not for, does a long body open with its rules, is scaffold text
 * left over. The thresholds are exported so the help and the tests state the same numbers.
 */

import type { LintedSkill, LintFinding } from "./lint-finding.js";
import { SourceLines } from "./lint-finding.js";
import { PLACEHOLDER } from "./skill-scaffold.js";

/** A description under this many words (two CJK characters count as one) is short. */
export const SHORT_DESCRIPTION_WORDS = 8;
/** A body longer than this many lines must open with a rule list. */
export const LONG_BODY_LINES = 60;
/** ... within this many non-blank lines (headings not counted). */
export const RULES_WITHIN_LINES = 10;

// Words that draw the skill's edge: what it does only, or not.
const BOUNDARY = /\b(?:not|never|only|except|without|instead|unless)\b|n't\b|不|仅|只|除|勿/iu;
// Words that say when to use it.
const TRIGGER_SIGNAL =
  /\b(?:when|whenever|if (?:the )?user|use (?:it |this )?(?:for|to)|asks?)\b|当|时|如果|需要/iu;
// A description's own "not for" clause does the work of an exclusions list.
const NEGATIVE_CLAUSE =
  /\b(?:not for|not when|not to be used|do not use|don't use|never use|avoid using|not suitable)\b|\b(?:use|prefer) [^.]{1,40} instead\b|不适用|不要|不用于|请勿|不得/iu;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/u;
const HEADING = /^\s*#{1,6}\s/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

export function skillFindings(entry: LintedSkill): LintFinding[] {
  const { skill, file } = entry;
  const at = new SourceLines(entry.source, skill.bodyLine);
  const found: LintFinding[] = [];
  const warn = (code: LintFinding["code"], line: number, message: string, hint: string) =>
    found.push({ severity: "warning", code, message, file, line, hint });
  const routingText = [skill.description, skill.whenToUse ?? ""].join("\n");

  const placeholderLine = placeholder(entry, at);
  if (placeholderLine !== undefined) {
    warn(
      "placeholder-text",
      placeholderLine,
      `"${PLACEHOLDER}" left in the file`,
      "Replace every TODO the scaffold left with the skill's own text.",
    );
  }

  const words = wordCount(skill.description);
  const hasBoundary = skill.exclusions.length > 0 || BOUNDARY.test(routingText);
  const hasTrigger =
    skill.triggers.length > 0 ||
    skill.examples.length > 0 ||
    skill.whenToUse !== undefined ||
    TRIGGER_SIGNAL.test(skill.description);
  if (words < SHORT_DESCRIPTION_WORDS && !hasBoundary && !hasTrigger) {
    warn(
      "vague-description",
      at.keyLine("description"),
      `the description "${skill.description}" is ${words} word${words === 1 ? "" : "s"} with no boundary and no trigger signal`,
      'Say what it does and does not do, and when to use it: "Current temperature and rain for a named city; not clothing advice. Use when the user asks about the weather."',
    );
  }

  if (
    !skill.disableModelInvocation &&
    !skill.role &&
    skill.exclusions.length === 0 &&
    !NEGATIVE_CLAUSE.test(routingText)
  ) {
    warn(
      "missing-exclusions",
      at.keyLine("description"),
      "no exclusions: nothing tells the model which look-alike requests are not for this skill",
      'Add `exclusions:` with the requests that look similar but belong elsewhere (they veto the skill), or a "Not for …" sentence in the description.',
    );
  }

  const bodyLines = skill.body.split(/\r?\n/u);
  if (bodyLines.length > LONG_BODY_LINES) {
    const opening = bodyLines
      .filter((line) => line.trim() !== "" && !HEADING.test(line))
      .slice(0, RULES_WITHIN_LINES);
    if (!opening.some((line) => LIST_ITEM.test(line))) {
      warn(
        "key-rules-not-first",
        skill.bodyLine,
        `the body is ${bodyLines.length} lines and its first ${RULES_WITHIN_LINES} lines hold no rule list`,
        "Open with the rules that must always hold, as a short list: models follow the start of a long text best. Move background and details below them or into references/.",
      );
    }
  }
  return found;
}

/**
 * The line of scaffold text still in place: TODO in a routing field, or a body list item
 * that starts with TODO (a body that merely mentions TODO lists is not a placeholder).
 */
function placeholder({ skill, source }: LintedSkill, at: SourceLines): number | undefined {
  const word = new RegExp(`\\b${PLACEHOLDER}\\b`, "u");
  const fields = [
    skill.description,
    skill.whenToUse ?? "",
    ...skill.triggers,
    ...skill.exclusions,
    ...skill.examples,
  ];
  if (fields.some((text) => word.test(text))) return at.firstLineWith(PLACEHOLDER);
  const item = new RegExp(`^\\s*(?:[-*+]|\\d{1,3}[.)])\\s+${PLACEHOLDER}\\b`, "u");
  const lines = source.split(/\r?\n/u);
  for (let i = skill.bodyLine - 1; i < lines.length; i++) if (item.test(lines[i]!)) return i + 1;
  return undefined;
}

/** Words in a description; a CJK text has no spaces, so two characters count as one word. */
export function wordCount(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const latin = text
    .replace(CJK, " ")
    .split(/[\s\p{P}]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return latin + Math.ceil(cjk / 2);
}
