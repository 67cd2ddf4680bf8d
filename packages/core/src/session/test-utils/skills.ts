/** Test helpers: build Skills without touching the parser, and a fixed SkillSource. */
import { defaultSkillMeta } from "../../load/builtin.js";
import type { Skill, SkillSource } from "../../types.js";

export function makeSkill(name: string, fields: Partial<Skill> = {}): Skill {
  return {
    name,
    description: `Does ${name} things.`,
    ...defaultSkillMeta(),
    body: `# ${name}\n\nInstructions of ${name}.`,
    scope: "project",
    file: `/skills/${name}/SKILL.md`,
    hash: `hash-${name}`,
    locked: false,
    bodyLine: 4,
    ...fields,
  };
}

/** A SkillSource over a mutable list: `replace()` swaps the list the way a refresh does. */
export function fixedSource(skills: Skill[]): SkillSource & { replace(next: Skill[]): void } {
  let list: readonly Skill[] = skills;
  let byName = new Map(skills.map((s) => [s.name, s]));
  return {
    skills: () => list,
    get: (name) => byName.get(name),
    replace(next) {
      list = next;
      byName = new Map(next.map((s) => [s.name, s]));
    },
  };
}
