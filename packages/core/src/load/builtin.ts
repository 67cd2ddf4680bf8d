/**
 * Builtin skills: defined in code, lowest precedence, optionally locked so no project or
 * user file can replace them (e.g. a role the host relies on).
 */
import { createHash } from "node:crypto";
import { diagnostic } from "../diagnostic.js";
import { parseSkill } from "../parse/parse-skill.js";
import type { BuiltinSkill, Diagnostic, ParseMode, Skill, SkillMeta } from "../types.js";

/** The `file` of a builtin skill: there is no file, so diagnostics and listings show this. */
export function builtinFile(name: string): string {
  return `builtin:${name}`;
}

export interface BuiltinLoad {
  skills: Skill[];
  diagnostics: Diagnostic[];
}

/** Turns code-defined skills into Skills with scope "builtin"; a broken one is skipped with its diagnostics. */
export function loadBuiltins(builtins: readonly BuiltinSkill[], mode: ParseMode = "lenient"): BuiltinLoad {
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  builtins.forEach((builtin, index) => {
    const loaded =
      builtin.content !== undefined ? fromContent(builtin, index, mode) : fromMeta(builtin, index);
    for (const d of loaded.diagnostics) diagnostics.push(d);
    if (loaded.skill) skills.push(loaded.skill);
  });
  return { skills, diagnostics };
}

function fromContent(
  builtin: BuiltinSkill,
  index: number,
  mode: ParseMode,
): { skill?: Skill; diagnostics: Diagnostic[] } {
  // The name is only known after parsing; report against the position until then.
  const provisional = builtinFile(builtin.meta?.name ?? `#${index}`);
  const result = parseSkill(builtin.content ?? "", { path: provisional, mode, folderName: false });
  if (!result.skill) return { diagnostics: result.diagnostics };
  const file = builtinFile(result.skill.name);
  const diagnostics = result.diagnostics.map((d) => (d.file === provisional ? { ...d, file } : d));
  return {
    skill: { ...result.skill, scope: "builtin", file, dir: undefined, locked: builtin.locked === true },
    diagnostics,
  };
}

function fromMeta(builtin: BuiltinSkill, index: number): { skill?: Skill; diagnostics: Diagnostic[] } {
  const meta = builtin.meta;
  if (!meta || typeof meta.name !== "string" || meta.name.trim() === "") {
    return {
      diagnostics: [
        diagnostic({
          severity: "error",
          code: "missing-name",
          message: `builtin skill #${index} has neither \`content\` nor \`meta.name\``,
          file: builtinFile(`#${index}`),
          hint: "Give the builtin either `content` (a full SKILL.md) or `meta: { name, description }`.",
        }),
      ],
    };
  }
  const file = builtinFile(meta.name);
  if (typeof meta.description !== "string" || meta.description.trim() === "") {
    return {
      diagnostics: [
        diagnostic({
          severity: "error",
          code: "missing-description",
          message: `builtin skill '${meta.name}' has no description`,
          file,
        }),
      ],
    };
  }
  const body = builtin.body ?? "";
  // An explicit `undefined` in meta means "not set", not "erase the default".
  const given = Object.fromEntries(Object.entries(meta).filter(([, value]) => value !== undefined));
  const full = { ...defaultSkillMeta(), ...given, extra: { ...(meta.extra ?? {}) } } as SkillMeta;
  const hash = createHash("sha256")
    .update(JSON.stringify({ meta: full, body }))
    .digest("hex");
  return {
    skill: { ...full, body, scope: "builtin", file, hash, locked: builtin.locked === true, bodyLine: 1 },
    diagnostics: [],
  };
}

/**
 * What an absent frontmatter field means (the same defaults the parser applies), as a fresh
 * object each call so no two skills share a list. One table for builtins, test helpers and
 * benchmarks that build a Skill without parsing.
 */
export function defaultSkillMeta(): Omit<SkillMeta, "name" | "description"> {
  return {
    triggers: [],
    exclusions: [],
    examples: [],
    disallowedTools: [],
    disableModelInvocation: false,
    userInvocable: true,
    arguments: [],
    role: false,
    priority: 0,
    extra: {},
  };
}
