/**
 * Checking a skill's triggers and exclusions the way matching compiles them, for tools that
 * check skills before they run (`skillshelf validate`): parsing only reads the phrases, and a
 * trigger matching refuses would otherwise only show up as a runtime warning. With the
 * SKILL.md text, each diagnostic points at the frontmatter line the entry is written on.
 */
import { diagnostic } from "../diagnostic.js";
import { splitFrontmatter } from "../parse/frontmatter.js";
import type { Diagnostic, Severity, SkillMeta } from "../types.js";
import { compileTrigger } from "./triggers.js";

export interface TriggerCheckOptions {
  /** Path reported in the diagnostics. */
  file: string;
  /** Default "warning" (matching ignores the entry); CI wants "error". */
  severity?: Severity;
  /** The SKILL.md text, to locate each entry; without it diagnostics point at line 1. */
  source?: string;
}

type Field = "triggers" | "exclusions";
/** Frontmatter keys each field is read from. */
const KEYS: Record<Field, readonly string[]> = {
  triggers: ["triggers"],
  exclusions: ["exclusions", "not_for"],
};

/** One `invalid-trigger` diagnostic per trigger or exclusion that matching would refuse. */
export function triggerDiagnostics(
  skill: Pick<SkillMeta, "name" | "triggers" | "exclusions">,
  options: TriggerCheckOptions,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  let lines: FrontmatterLines | undefined;
  for (const field of ["triggers", "exclusions"] as const) {
    for (const entry of skill[field]) {
      const result = compileTrigger(entry);
      if (result.ok) continue;
      lines ??= frontmatterLines(options.source);
      const at = locate(lines, field, entry);
      out.push(
        diagnostic({
          severity: options.severity ?? "warning",
          code: "invalid-trigger",
          message: `${skill.name}: ${field} entry ${JSON.stringify(entry)} is ignored when matching: ${result.error}`,
          file: options.file,
          line: at.line,
          column: at.column,
          hint: result.hint,
        }),
      );
    }
  }
  return out;
}

interface FrontmatterLines {
  /** The YAML lines. */
  lines: string[];
  /** File line of `lines[0]`. */
  first: number;
}

function frontmatterLines(source: string | undefined): FrontmatterLines {
  if (source === undefined) return { lines: [], first: 1 };
  const text = source.replace(/^\uFEFF/u, "").replace(/\r\n?/gu, "\n");
  const split = splitFrontmatter(text);
  if (split.kind !== "ok") return { lines: [], first: 1 };
  return { lines: split.yaml.split("\n"), first: split.yamlLine };
}

const TOP_LEVEL_KEY = /^([^\s#-][^:]*):/u;

/**
 * The line (and column) of `entry` inside its field's block: the first line there that
 * holds it as written, or as a double-quoted YAML string writes it (`\` doubled); else the
 * key's own line; else line 1.
 */
function locate(
  { lines, first }: FrontmatterLines,
  field: Field,
  entry: string,
): { line: number; column?: number } {
  const keys = KEYS[field];
  const start = lines.findIndex((line) => {
    const key = TOP_LEVEL_KEY.exec(line)?.[1]?.trim().toLowerCase();
    return key !== undefined && keys.includes(key);
  });
  if (start === -1) return { line: 1 };
  let end = start + 1;
  while (end < lines.length && !TOP_LEVEL_KEY.test(lines[end] as string)) end++;
  const written = entry.trim();
  for (const form of [written, written.replace(/\\/gu, "\\\\")]) {
    for (let i = start; i < end; i++) {
      const column = (lines[i] as string).indexOf(form, i === start ? (lines[i] as string).indexOf(":") : 0);
      if (column !== -1) return { line: first + i, column: column + 1 };
    }
  }
  return { line: first + start };
}
