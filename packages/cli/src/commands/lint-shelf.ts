/**
 * Lint checks that need the whole set of skills: pairs that compete for the same requests
 * (stage 1, the real matcher, makes the other skill a candidate for one skill's own examples
 * and triggers), and one-word triggers common enough to fire on unrelated requests.
 */
import { createMatcher, type Skill } from "@skillshelf/core";
import type { LintedSkill, LintFinding } from "./lint-finding.js";
import { SourceLines } from "./lint-finding.js";

/**
 * Words that appear in requests of every kind. A trigger is a sure hit (it makes the skill
 * a candidate whatever else the message says), so one of these alone fires far too often.
 */
const COMMON_WORDS = new Set(
  `add analyze build change check code create data do document edit file files find fix get
  help list make new note open plan read review run search show start test text update use
  write work 写 查 看 做 改 帮 用 找 读 查询 帮忙 文件 代码 数据 问题`.split(/\s+/u),
);
/** A word in the descriptions of at least this share of the other skills is generic here ... */
export const GENERIC_SHARE = 0.25;
/** ... provided that is at least this many skills (a share of a tiny shelf proves nothing). */
export const GENERIC_MIN_SKILLS = 3;

/**
 * A competitor scoring under this share of the skill's own score on its own example is
 * noise the model settles at a glance; at or above it, the two really compete.
 */
export const OVERLAP_RATIO = 0.5;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const REGEX_TRIGGER = /^\/.*\/[a-z]*$/u;

export function shelfFindings(entries: readonly LintedSkill[]): LintFinding[] {
  return [...genericTriggers(entries), ...overlaps(entries)];
}

function genericTriggers(entries: readonly LintedSkill[]): LintFinding[] {
  const found: LintFinding[] = [];
  const texts = entries.map(({ skill }) =>
    `${skill.name} ${skill.description} ${skill.whenToUse ?? ""}`.toLowerCase(),
  );
  for (const [i, { skill, file, source }] of entries.entries()) {
    const at = new SourceLines(source, skill.bodyLine);
    for (const trigger of skill.triggers) {
      const word = trigger.trim().toLowerCase();
      if (word === "" || /\s|\*/u.test(word) || REGEX_TRIGGER.test(word)) continue;
      const others = texts.filter((text, j) => j !== i && containsWord(text, word)).length;
      const shelfWide = others >= GENERIC_MIN_SKILLS && others >= GENERIC_SHARE * (entries.length - 1);
      const singleCharacter = CJK.test(word) && [...word].length === 1;
      if (!COMMON_WORDS.has(word) && !shelfWide && !singleCharacter) continue;
      found.push({
        severity: "warning",
        code: "generic-trigger",
        message: shelfWide
          ? `the trigger "${trigger}" is one word that ${others} of the other ${entries.length - 1} skills also use`
          : `the trigger "${trigger}" is one common word: it makes this skill a candidate for almost any request`,
        file,
        line: at.itemLine(trigger, "triggers"),
        hint: `Make it a phrase only this skill's requests contain ("${trigger} …"), or move the word to \`examples\`.`,
      });
    }
  }
  return found;
}

function containsWord(text: string, word: string): boolean {
  if (CJK.test(word)) return text.includes(word);
  let from = text.indexOf(word);
  while (from >= 0) {
    const before = text[from - 1];
    const after = text[from + word.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = text.indexOf(word, from + 1);
  }
  return false;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
}

/** Each ordered pair once: the first example or trigger of A that makes B a candidate. */
function overlaps(entries: readonly LintedSkill[]): LintFinding[] {
  const skills: Skill[] = entries.map((e) => e.skill);
  const matcher = createMatcher();
  const found: LintFinding[] = [];
  for (const { skill, file, source } of entries) {
    const at = new SourceLines(source, skill.bodyLine);
    const probes = [
      ...skill.examples.map((text) => ({ text, kind: "example", key: "examples" })),
      ...skill.triggers
        .filter((t) => !REGEX_TRIGGER.test(t.trim()) && !t.includes("*"))
        .map((text) => ({ text, kind: "trigger", key: "triggers" })),
    ];
    const reported = new Set<string>([skill.name]);
    for (const probe of probes) {
      const result = matcher.match(skills, probe.text, { includeHidden: true, limit: 5 });
      const own = result.candidates.find((c) => c.name === skill.name)?.score;
      for (const other of result.candidates) {
        if (reported.has(other.name) || (own !== undefined && other.score < OVERLAP_RATIO * own)) continue;
        reported.add(other.name);
        found.push({
          severity: "warning",
          code: "overlapping-skills",
          message: `the ${probe.kind} "${probe.text}" also makes ${other.name} a candidate (score ${other.score.toFixed(2)}${own === undefined ? `; ${skill.name} itself is not one` : ` vs ${own.toFixed(2)}`})`,
          file,
          line: at.itemLine(probe.text, probe.key),
          hint: `Give ${other.name} an exclusion for this kind of request, or make this ${probe.kind} more specific; if the two skills do the same job, merge them.`,
        });
      }
    }
  }
  return found;
}
