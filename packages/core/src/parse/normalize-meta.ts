/**
 * Frontmatter pairs → SkillMeta, applying the format's rules: known fields checked and
 * normalised by their schema, spellings and duplicates resolved deterministically, the
 * spec's name/description/compatibility rules, unknown keys kept in `extra`.
 *
 * Lenient mode (the runtime default) follows the Agent Skills client guide: only a missing
 * or unusable description (or name with no folder to fall back on) skips the skill; every
 * other problem is a warning and the skill loads. Strict mode makes them errors.
 */
import type { SkillMeta } from "../types.js";
import { contractProblems } from "../workflow/step-fields.js";
import { COMPATIBILITY_MAX_LENGTH, DESCRIPTION_MAX_LENGTH, MAX_YAML_ALIASES } from "./limits.js";
import { checkName, codePointLength, normalizeName, suggestName } from "./name-rules.js";
import { reportRefusedGlobs } from "./path-glob-budget.js";
import type { Locator, Report } from "./report.js";
import { defineOwn, FIELD_BY_KEY, type FieldSpec } from "./schema.js";
import {
  failClosed,
  isSecurityField,
  nearMissSecurityField,
  restrictionOf,
  type SecurityProp,
  securityFieldHint,
} from "./security-fields.js";
import { AliasLimitError, type Frontmatter, type KeyPosition } from "./yaml-frontmatter.js";

interface Entry {
  key: string;
  keyNode: KeyPosition | null;
  value: unknown;
  spec: FieldSpec | undefined;
  /** Spelled as documented (or one of its accepted snake/kebab spellings), not a case variant. */
  exact: boolean;
}

/** Keys that are the same field or the same unknown key: case and `_`/`-` do not count. */
function foldKey(key: string): string {
  return key.toLowerCase().replaceAll("_", "-");
}

/** Optional SkillMeta properties copied over only when the file sets them. */
const OPTIONAL_PROPS = [
  "license",
  "compatibility",
  "metadata",
  "whenToUse",
  "allowedTools",
  "argumentHint",
  "parameters",
  "version",
  "model",
  "group",
  "context",
  "agent",
  "paths",
  "hooks",
  "effort",
  "domain",
  "steps",
  "stepTimeout",
  "stepRetries",
] as const;

/** Claude Code fields skillshelf keeps on the skill but does not act on (an `info` says so). */
const NOT_APPLIED: ReadonlyMap<keyof SkillMeta, string> = new Map<keyof SkillMeta, string>([
  ["hooks", "skillshelf never runs a skill's hooks"],
  ["effort", "skillshelf does not set the model's effort"],
]);

export function normalizeMeta(
  report: Report,
  frontmatter: Frontmatter,
  locator: Locator,
  folderName: string | undefined,
): SkillMeta | undefined {
  // Group the pairs: all spellings of one known field together, unknown keys by folded key.
  // (Index loops, a list of the groups beside the map, and one `line` function for all
  // groups: this runs once per skill file, and the iterators and a closure per group were
  // ≈ 35 MB of the ≈ 465 MB a load of the mirror allocates.)
  const groups = new Map<string, Entry[]>();
  const groupList: Entry[][] = [];
  const pairs = frontmatter.pairs;
  for (let p = 0; p < pairs.length; p++) {
    const { key, keyNode, value } = pairs[p]!;
    let spec = FIELD_BY_KEY.get(key);
    const exact = spec !== undefined;
    spec ??= FIELD_BY_KEY.get(foldKey(key));
    const id = spec ? spec.key : `?${foldKey(key)}`;
    const entry: Entry = { key, keyNode, value, spec, exact };
    const group = groups.get(id);
    if (group) group.push(entry);
    else {
      const created = [entry];
      groups.set(id, created);
      groupList.push(created);
    }
  }

  // Lines are looked up only for a diagnostic: most files have none, and the first lookup
  // builds the YAML's line table.
  const values = new Map<keyof SkillMeta, { value: unknown; keyNode: KeyPosition | null }>();
  const extra: Record<string, unknown> = {};
  const aliasBudget = { aliases: MAX_YAML_ALIASES };
  let invalidDescription = false;
  /** Security fields that could not be read exactly: the skill is restricted as each one requires. */
  const failed = new Set<SecurityProp>();

  let winner: Entry;
  const line = (): number => locator.lineOf(winner.keyNode);
  for (let g = 0; g < groupList.length; g++) {
    const group = groupList[g]!;
    // Deterministic winner: the documented spelling, else the first one written.
    winner = exactOf(group) ?? group[0]!;
    for (let l = 0; l < group.length; l++) {
      const loser = group[l]!;
      if (loser === winner) continue;
      // Unknown keys keep the first occurrence of each spelling (see below); known fields keep the winner.
      const kept = winner.spec === undefined ? group.find((e) => e.key === loser.key)! : winner;
      const keptLine = locator.lineOf(kept.keyNode);
      report.rule(
        "duplicate-key",
        kept === loser
          ? `\`${loser.key}\` differs from \`${winner.key}\` (line ${line()}) only in case or \`_\`/\`-\`; both are kept in \`extra\``
          : `\`${loser.key}\` repeats \`${kept.key}\` (line ${keptLine}); the one on line ${keptLine} is used`,
        locator.lineOf(loser.keyNode),
        `Delete \`${loser.key}\` (or merge it into \`${winner.key}\`); keys are case-sensitive and each may appear once.`,
      );
    }

    let raw: unknown;
    try {
      if (winner.spec === undefined) {
        // Unknown keys: each distinct spelling is kept (`Author` and `author` both), so
        // nothing the file says is lost; an exact repeat keeps its first value.
        for (let u = 0; u < group.length; u++) {
          const entry = group[u]!;
          if (Object.hasOwn(extra, entry.key)) continue;
          defineOwn(extra, entry.key, frontmatter.js(entry.value));
          reportNestedDuplicates(report, frontmatter, entry.key, entry.value, locator);
          const meant = nearMissSecurityField(entry.key);
          if (meant !== undefined) {
            failed.add(meant.prop as SecurityProp);
            report.restrict(
              "misspelled-security-field",
              `\`${entry.key}\` is not a SKILL.md field but looks like \`${meant.key}\`; ${restrictionOf(meant)} until it is spelled \`${meant.key}\``,
              locator.lineOf(entry.keyNode),
              `Rename \`${entry.key}\` to \`${meant.key}\`.`,
            );
          } else if (report.mode === "strict") {
            report.error(
              "unknown-field",
              `\`${entry.key}\` is not a SKILL.md field`,
              locator.lineOf(entry.keyNode),
            );
          }
        }
        continue;
      }
      raw = winner.spec.raw ? frontmatter.js(winner.value) : frontmatter.text(winner.value, aliasBudget);
      reportNestedDuplicates(report, frontmatter, winner.key, winner.value, locator);
    } catch (error) {
      const aliases = error instanceof AliasLimitError;
      report.error(
        "yaml-syntax",
        aliases
          ? `\`${winner.key}\` expands more than ${MAX_YAML_ALIASES} YAML aliases (or one with no anchor)`
          : `\`${winner.key}\` could not be read: ${(error as Error).message}`,
        line(),
        aliases ? "Remove the YAML anchors (&) and aliases (*); write the values out." : undefined,
      );
      return undefined;
    }

    const spec = winner.spec;
    if (!winner.exact) {
      report.rule(
        "key-case",
        `\`${winner.key}\` is read as \`${spec.key}\``,
        line(),
        `Rename \`${winner.key}\` to \`${spec.key}\`; YAML keys are case-sensitive.`,
      );
    }
    const security = isSecurityField(spec);
    if (security && (raw === null || raw === undefined || !spec.schema.safeParse(raw).success)) {
      // Ignoring it would lift the limit the author meant: fail closed instead.
      failed.add(spec.prop as SecurityProp);
      report.restrict(
        "invalid-security-field",
        `\`${winner.key}\` should be ${spec.expects}, not ${raw === null || raw === undefined ? "nothing" : describe(raw)}; ${restrictionOf(spec)} until it is fixed`,
        line(),
        securityFieldHint(spec),
      );
      continue;
    }
    if (raw === null || raw === undefined) continue; // `key:` with nothing after it: not set
    const parsed = spec.schema.safeParse(raw);
    if (!parsed.success && spec.problems) {
      for (const problem of spec.problems(raw)) report.error("invalid-steps", problem, line());
      continue;
    }
    if (!parsed.success) {
      const required = spec.prop === "description";
      report.add(
        required || report.mode === "strict" ? "error" : "warning",
        "invalid-field",
        `\`${winner.key}\` should be ${spec.expects}, not ${describe(raw)}${required ? "" : "; it is ignored"}`,
        line(),
        `Write \`${spec.key}\` as ${spec.expects}.`,
      );
      if (required) invalidDescription = true;
      continue;
    }
    values.set(spec.prop, { value: parsed.data, keyNode: winner.keyNode });
    const notApplied = NOT_APPLIED.get(spec.prop);
    if (notApplied !== undefined) {
      report.add(
        "info",
        "field-not-applied",
        `\`${spec.key}\` is kept on the skill for hosts that use it, but not applied: ${notApplied}`,
        line(),
      );
    }
  }
  const get = <T>(prop: keyof SkillMeta): T | undefined => values.get(prop)?.value as T | undefined;
  const lineOf = (prop: keyof SkillMeta, key: string) => (): number => {
    const set = values.get(prop);
    return locator.lineOf(set ? set.keyNode : groups.get(key)?.[0]?.keyNode);
  };

  // description: required. Without one the skill cannot be offered to a model: skipped.
  // (Checks go on afterwards, so one run reports everything that is wrong.)
  const description = get<string>("description")?.trim() ?? "";
  if (description === "" && !invalidDescription) {
    const line = lineOf("description", "description")();
    const why = groups.has("description") ? emptyValueReason(locator.text(line)) : undefined;
    report.error(
      "missing-description",
      groups.has("description")
        ? `\`description\` is empty${why ? `: ${why.message}` : ""}`
        : "the frontmatter has no `description`",
      line,
      why?.hint,
    );
  }
  if (description !== "") checkDescription(report, description, lineOf("description", "description"));

  const name = resolveName(report, get<string>("name"), lineOf("name", "name"), folderName);

  const compatibility = get<string>("compatibility");
  if (compatibility !== undefined && compatibility.length > COMPATIBILITY_MAX_LENGTH) {
    const length = codePointLength(compatibility);
    if (length > COMPATIBILITY_MAX_LENGTH) {
      report.rule(
        "compatibility-too-long",
        `\`compatibility\` is ${length} characters; the limit is ${COMPATIBILITY_MAX_LENGTH}`,
        lineOf("compatibility", "compatibility")(),
      );
    }
  }

  const paths = get<string[]>("paths");
  if (paths !== undefined) reportRefusedGlobs(report, paths, lineOf("paths", "paths"));

  if (name === undefined || description === "") return undefined;
  const meta: SkillMeta = {
    name,
    description,
    triggers: get<string[]>("triggers") ?? [],
    exclusions: get<string[]>("exclusions") ?? [],
    examples: get<string[]>("examples") ?? [],
    disallowedTools: get<string[]>("disallowedTools") ?? [],
    disableModelInvocation: get<boolean>("disableModelInvocation") ?? false,
    // A role skill is a sub-agent, not a "/command": it opts in with an explicit `user-invocable: true`.
    userInvocable: get<boolean>("userInvocable") ?? get<boolean>("role") !== true,
    arguments: get<string[]>("arguments") ?? [],
    role: get<boolean>("role") ?? false,
    priority: get<number>("priority") ?? 0,
    extra,
  };
  for (let o = 0; o < OPTIONAL_PROPS.length; o++) {
    const prop = OPTIONAL_PROPS[o]!;
    const value = get<never>(prop);
    if (value !== undefined) meta[prop] = value;
  }
  // Read from the values, not `meta`: each file's set of optional fields gives `meta` a
  // shape of its own, and a property read or write over many shapes sends V8's optimised
  // code for this function back to the interpreter (it was compiled 11 times per load).
  if (get("agent") !== undefined && get("context") !== "fork") {
    report.add(
      "info",
      "field-not-applied",
      "`agent` is kept on the skill, but applies only with `context: fork` (the sub-agent the skill runs as); without it the skill runs in the conversation",
      lineOf("agent", "agent")(),
      "Add `context: fork` to run the skill in a sub-agent as that role, or remove `agent`.",
    );
  }
  const contract = contractProblems(meta);
  for (const problem of contract) {
    report.error(
      "invalid-steps",
      problem,
      lineOf("steps", "steps")(),
      "Move the step after the one whose `output` it reads.",
    );
  }
  if (contract.length > 0) return undefined;
  if (failed.size > 0) failClosed(meta, failed);
  return meta;
}

/** The entry spelled as documented, if any. */
function exactOf(group: readonly Entry[]): Entry | undefined {
  for (let i = 0; i < group.length; i++) if (group[i]!.exact) return group[i];
  return undefined;
}

function checkDescription(report: Report, description: string, line: () => number): void {
  // UTF-16 length ≥ code points, so the exact count is only needed past the limit.
  if (description.length > DESCRIPTION_MAX_LENGTH) {
    const length = codePointLength(description);
    if (length > DESCRIPTION_MAX_LENGTH) {
      report.rule(
        "description-too-long",
        `\`description\` is ${length} characters; the limit is ${DESCRIPTION_MAX_LENGTH}`,
        line(),
      );
    }
  }
  // anthropics' quick_validate rejects angle brackets: hosts may read them as markup.
  if (report.mode === "strict" && (description.includes("<") || description.includes(">"))) {
    report.error("description-angle-brackets", "`description` contains `<` or `>`", line());
  }
}

/** The skill's name, or undefined when there is none to be had (an error says why). */
function resolveName(
  report: Report,
  written: string | undefined,
  line: () => number,
  folderName: string | undefined,
): string | undefined {
  let name = normalizeName(written ?? "");
  let fromFolder = false;
  if (name === "") {
    const what = written === undefined ? "the frontmatter has no `name`" : "`name` is empty";
    if (report.mode === "strict" || folderName === undefined || normalizeName(folderName) === "") {
      report.error("missing-name", what, line());
      return undefined;
    }
    // Lenient: the Agent Skills convention is name = folder, so the folder names it.
    name = normalizeName(folderName);
    fromFolder = true;
    report.add(
      "warning",
      "missing-name",
      `${what}; the folder name "${name}" is used`,
      line(),
      `Add \`name: ${suggestName(name) || name}\` to the frontmatter.`,
    );
  }

  const problems = checkName(name);
  for (const problem of problems) {
    const suggestion = suggestName(name);
    report.rule(
      problem.code,
      fromFolder ? `the folder name: ${problem.message}` : problem.message,
      line(),
      problem.code === "invalid-name" && suggestion !== ""
        ? `Use only lower-case letters, digits and single hyphens, e.g. \`name: ${suggestion}\` (and a folder of that name).`
        : undefined,
    );
  }
  if (!fromFolder && folderName !== undefined && normalizeName(folderName) !== name) {
    report.rule(
      "name-mismatch",
      `\`name\` "${name}" differs from its folder "${folderName}"`,
      line(),
      mismatchHint(name, problems.length === 0, folderName),
    );
  }
  return name;
}

/** Never suggest adopting a name that breaks the rules, on either side. */
function mismatchHint(name: string, nameValid: boolean, folderName: string): string {
  const folderValid = checkName(normalizeName(folderName)).length === 0;
  if (nameValid && folderValid) return `Rename the folder to "${name}", or set \`name: ${folderName}\`.`;
  if (folderValid) return `Set \`name: ${folderName}\` to match its folder.`;
  if (nameValid) return `Rename the folder to "${name}".`;
  const suggestion = suggestName(name) || suggestName(folderName);
  return `Use one valid name for both the folder and \`name\`, e.g. "${suggestion}".`;
}

/**
 * Why a `key:` line that has text after it still reads as empty: a `#` after the colon
 * starts a YAML comment, and a `|` or `>` block needs its text on the lines below, indented.
 */
function emptyValueReason(line: string): { message: string; hint: string } | undefined {
  const value = /^[^:]*:[ \t]+(.*)$/.exec(line)?.[1]?.trim();
  if (value === undefined || value === "") return undefined;
  if (value.startsWith("#")) {
    return {
      message: "in YAML a `#` after a space starts a comment, so everything after it on the line is ignored",
      hint: `Quote the value: description: "${value.replaceAll('"', '\\"').slice(0, 60)}${value.length > 60 ? "…" : ""}"`,
    };
  }
  if (/^[|>][0-9+-]*(?:[ \t]+#.*)?$/.test(value)) {
    return {
      message: `the \`${value[0]}\` block has no text: its lines must follow, indented more than \`description\``,
      hint: `Indent the description's lines under \`description: ${value[0]}\`, or write it on one line.`,
    };
  }
  return undefined;
}

/** Keys written twice inside a value (`metadata`, `hooks`): the last copy wins, so say which. */
function reportNestedDuplicates(
  report: Report,
  frontmatter: Frontmatter,
  key: string,
  value: unknown,
  locator: Locator,
): void {
  for (const repeat of frontmatter.duplicates(value, key)) {
    const usedLine = locator.at(repeat.usedAt).line;
    report.rule(
      "duplicate-key",
      `\`${repeat.path}\` is written ${repeat.copies} times; only the last one (line ${usedLine}) is used, this one is ignored`,
      locator.at(repeat.at).line,
      `Delete the copies of \`${repeat.path}\` you do not mean, keeping one.`,
    );
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) {
    // The list itself is fine; one of its items is not (a nested list or a mapping).
    const index = value.findIndex((item) => item !== null && typeof item === "object");
    if (index === -1) return "a list";
    return `a list whose item ${index + 1} is ${Array.isArray(value[index]) ? "a list" : "a mapping"}`;
  }
  if (value === null) return "empty";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}
