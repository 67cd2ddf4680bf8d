import { defaultSkillMeta } from "../../load/builtin.js";
import type { Skill } from "../../types.js";

/** A Skill with the defaults parseSkill would give, for tests that only care about a few fields. */
export function testSkill(fields: Partial<Skill> & { name: string }): Skill {
  return {
    description: `${fields.name} skill`,
    ...defaultSkillMeta(),
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
