/**
 * Roles: skills marked `role: true` describe a sub-agent (body = its instructions,
 * `allowed-tools` = its tools, `model` = the model it should run on). Adapters start a
 * sub-agent from a Role; they never read the skill themselves.
 */
import type { Role, Skill, SkillSource } from "../types.js";

export function roleFromSkill(skill: Skill): Role {
  const role: Role = {
    name: skill.name,
    description: skill.whenToUse ? `${skill.description} ${skill.whenToUse}` : skill.description,
    instructions: skill.body.trim(),
    scope: skill.scope,
    file: skill.file,
  };
  if (skill.allowedTools) role.allowedTools = [...skill.allowedTools];
  if (skill.disallowedTools.length > 0) role.disallowedTools = [...skill.disallowedTools];
  if (skill.model) role.model = skill.model;
  if (skill.disableModelInvocation) role.userOnly = true;
  return role;
}

/** Every role on the shelf (after precedence: a project `reviewer` replaces the builtin one). */
export function rolesOf(source: SkillSource): Role[] {
  return source
    .skills()
    .filter((s) => s.role)
    .map(roleFromSkill);
}

export function roleOf(source: SkillSource, name: string): Role | undefined {
  const skill = source.get(name);
  return skill?.role ? roleFromSkill(skill) : undefined;
}
