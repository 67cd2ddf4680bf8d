/**
 * Building and printing diagnostics. Every module creates them through `diagnostic()` so
 * the shape stays uniform and every code has a default hint telling the user what to change.
 */
import type { Diagnostic, DiagnosticCode, Severity } from "./types.js";

/** The default fix for each code; callers pass a more specific hint when they know one. */
export const DEFAULT_HINTS: Readonly<Record<DiagnosticCode, string>> = {
  "file-too-large": "Move long reference material into references/ files and keep SKILL.md short.",
  "frontmatter-too-large":
    "Keep the frontmatter to its fields; move long text into the body or a references/ file.",
  "binary-file": "SKILL.md must be UTF-8 text; replace it with a Markdown file.",
  "empty-file": "Add YAML frontmatter with `name:` and `description:`, then the instructions.",
  "no-frontmatter":
    "Start the file with a `---` line, then `name:` and `description:` lines, then a closing `---` line.",
  "unclosed-frontmatter": "Add a line containing only `---` after the last frontmatter field.",
  "yaml-syntax":
    'Fix the YAML at this line; quote values that contain ": " or start with a special character (e.g. description: "Use when: ...").',
  "yaml-recovered":
    'Quote values that contain ": " (e.g. description: "Use when: ..."); other YAML parsers reject this file.',
  "frontmatter-not-mapping":
    "The frontmatter must be `key: value` lines (a YAML mapping), not a list or a single value.",
  "duplicate-key":
    "Keep one spelling of the key and delete the other; keys are case-sensitive and lower-case.",
  "missing-name": "Add `name: <folder-name>` to the frontmatter (lower-case letters, digits and hyphens).",
  "missing-description":
    "Add `description:` saying what the skill does and when to use it; without it the skill cannot be offered.",
  "invalid-name":
    "Use only lower-case letters, digits and single hyphens, not at the start or end (e.g. `pdf-tools`).",
  "name-too-long": "Shorten `name` to 64 characters or fewer (and rename the folder to match).",
  "name-mismatch": "Rename the folder or change `name` so they are the same.",
  "description-too-long": "Shorten `description` to 1024 characters; move details into the body.",
  "description-angle-brackets":
    "Remove `<` and `>` from `description` (they can be read as markup); write the words out.",
  "compatibility-too-long": "Shorten `compatibility` to 500 characters.",
  "invalid-field": "Change the value to the type this field expects (see the SKILL.md format in the README).",
  "invalid-security-field":
    "Write the field as documented (`allowed-tools: Read Grep`, `disable-model-invocation: true`); until then the skill loads with no tools and only the user can run it.",
  "misspelled-security-field":
    "Spell the key as documented (`allowed-tools`, `disallowed-tools`, `disable-model-invocation`); until then the skill loads maximally restricted.",
  "unknown-field": "Remove the key, fix its spelling, or move it under `metadata:`.",
  "key-case": "Write the key in lower case as documented; YAML keys are case-sensitive.",
  "body-too-long": "Keep SKILL.md under 500 lines; move detail into references/ files the body links to.",
  "nul-character":
    "Delete the NUL character (an invisible \\0, often left by a broken copy or an editor); SKILL.md is plain text.",
  "field-not-applied":
    "Nothing to do for skillshelf; the field is kept for hosts (such as Claude Code) that apply it.",
  "invalid-steps":
    "Write `steps` as a list of `{id, title, input: [...], output, verify}`; each input must be a parameter or an earlier step's output.",
  "missing-step-file":
    "Add the step's prompt as `steps/NN-<id>.md` beside SKILL.md (NN = its position, from 01).",
  "paths-over-budget":
    "Write fewer or simpler `paths` globs (a `{a,b}` list rather than a long `{1..n}` range, one `*` per segment); until then the skill is not offered for the files that glob names.",
  "invalid-parameters":
    "Fix the parameter schema (JSON Schema draft-07, an object at the root, only local `$ref`s); until then the skill cannot be activated.",
  "parameters-conflict":
    "Keep the parameter schema in one place: delete the `parameters:` field or schema.json.",
  shadowed: "Rename one of the skills, or remove the one you do not want.",
  "duplicate-name": "Give each skill in this folder a distinct `name`.",
  locked: "This builtin skill cannot be overridden; choose another name.",
  "role-shadowed":
    "Rename this skill: its name belongs to a role (a sub-agent), and an ordinary skill cannot replace a role. To replace the role, add `role: true`.",
  "symlink-escape": "Point the link at a folder inside the skills root, or copy the skill in.",
  "read-error": "Check that the file exists and is readable.",
  "kept-last-good":
    "Fix the error reported for this file; the last version that loaded stays active meanwhile.",
  "prebuilt-unusable":
    "Run `skillshelf build` again with the same options as the app (root, folders, mode); until then the skills are scanned from their folders.",
  "prebuilt-stale":
    "Run `skillshelf build` again when you deploy; changed files are read from their sources until then.",
  "prebuilt-mismatch":
    "Run `skillshelf build` again, and check who else writes the prebuilt shelf: it disagreed with the skill's own file, which was used instead.",
  "unknown-tool": "Fix the tool name in `allowed-tools`, or register that tool with the host.",
  "tool-glob-expansion":
    "Check that every tool listed should be allowed; name the tools instead of a glob to allow exactly those.",
  "tool-argument-limit":
    "Allow the tool without a command pattern, or map the entry to a tool that runs only those commands (toolAliases).",
  "invalid-trigger": "Fix the trigger pattern (a /regex/ must compile).",
  "config-invalid": 'Fix .skillshelf/config.json: a JSON object such as { "disabled": ["skill-name"] }.',
  disabled:
    "Remove it from `disabled` in .skillshelf/config.json (`skillshelf enable <name>`) to turn it back on.",
  "tool-name-clash":
    "Rename the host tool if you can; skillshelf already offers its own tool under another name.",
  "plan-fallback":
    "Check the custom matcher and catalog options (tokenizer, embed); the error says what failed.",
  untrusted:
    "Read the skill's files (SKILL.md, scripts/), then run `skillshelf trust <folder>` to let the model use it.",
  "trust-changed":
    "The skill changed since you trusted it: review the change, then run `skillshelf trust <folder>` again.",
  "missing-tools":
    "Register the tools with the host, map the names with toolAliases, or fix `allowed-tools`.",
};

export interface DiagnosticInput {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  file: string;
  /** 1-based; defaults to 1 (the top of the file). */
  line?: number;
  column?: number;
  /** Defaults to the code's standard hint. */
  hint?: string;
}

export function diagnostic(input: DiagnosticInput): Diagnostic {
  const d: Diagnostic = {
    severity: input.severity,
    code: input.code,
    message: input.message,
    file: input.file,
    line: input.line !== undefined && input.line >= 1 ? input.line : 1,
    hint: input.hint ?? DEFAULT_HINTS[input.code],
  };
  if (input.column !== undefined) d.column = input.column;
  return d;
}

/** `file:line:col severity code: message` + an indented hint line, as compilers print them. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.column !== undefined ? `${d.file}:${d.line}:${d.column}` : `${d.file}:${d.line}`;
  return `${where} ${d.severity} ${d.code}: ${d.message}\n  hint: ${d.hint}`;
}
