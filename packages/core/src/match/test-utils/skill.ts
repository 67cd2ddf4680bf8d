import type { Skill } from "../../types.js";

/** A Skill with the defaults parseSkill would give, for tests that only care about a few fields. */
export function testSkill(fields: Partial<Skill> & { name: string }): Skill {
  return {
    description: `${fields.name} skill`,
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
    body: "",
    scope: "project",
    file: `/skills/${fields.name}/SKILL.md`,
    dir: `/skills/${fields.name}`,
    hash: fields.name,
    locked: false,
    bodyLine: 1,
    ...fields,
  };
}
