/**
 * What `skillshelf lint` reports: advice on how well a skill will route, not whether it
 * loads (that is `validate`). Codes are stable: safe to count, grep or suppress.
 */
import type { Severity, Skill } from "@skillshelf/core";

export type LintCode =
  /** The file did not load; `skillshelf validate` says why. */
  | "not-loaded"
  /** A short description with neither a boundary nor a trigger signal. */
  | "vague-description"
  /** A model-invocable skill that names no request it must not take. */
  | "missing-exclusions"
  /** A long body that does not open with its rules. */
  | "key-rules-not-first"
  /** Scaffold text (TODO) still in place. */
  | "placeholder-text"
  /** A one-word trigger common enough to fire on unrelated requests. */
  | "generic-trigger"
  /** One skill's example or trigger makes another skill a stage-1 candidate. */
  | "overlapping-skills";

export interface LintFinding {
  severity: Severity;
  code: LintCode;
  message: string;
  /** The file as shown to the user. */
  file: string;
  /** 1-based line in `file`. */
  line: number;
  hint: string;
}

/** A loaded skill with what lint needs to locate findings in its file. */
export interface LintedSkill {
  skill: Skill;
  /** The file as shown to the user. */
  file: string;
  source: string;
}

/** Where things are in a skill file's text, for findings that point at a line. */
export class SourceLines {
  private readonly lines: string[];
  private readonly frontmatterEnd: number;

  constructor(source: string, bodyLine: number) {
    this.lines = source.split(/\r?\n/u);
    this.frontmatterEnd = Math.max(0, Math.min(this.lines.length, bodyLine - 1));
  }

  /** The line of the first of `keys` in the frontmatter (1 when none is found). */
  keyLine(...keys: string[]): number {
    for (let i = 0; i < this.frontmatterEnd; i++) {
      const line = this.lines[i]!;
      if (keys.some((key) => line.startsWith(key) && /^\s*:/u.test(line.slice(key.length)))) return i + 1;
    }
    return 1;
  }

  /** The line of `text` in the frontmatter at or after the first of `keys` (else that key's line). */
  itemLine(text: string, ...keys: string[]): number {
    const from = this.keyLine(...keys);
    for (let i = from - 1; i < this.frontmatterEnd; i++) if (this.lines[i]!.includes(text)) return i + 1;
    return from;
  }

  /** The first line containing `text` anywhere in the file, if any. */
  firstLineWith(text: string): number | undefined {
    const i = this.lines.findIndex((line) => line.includes(text));
    return i < 0 ? undefined : i + 1;
  }
}
