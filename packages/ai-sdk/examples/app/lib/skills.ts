import { createSkills, type Skills } from "@skillshelf/ai-sdk";
import { createShelf } from "@skillshelf/core";

// Once per process: loads <root>/.agents/skills, <root>/.skillshelf/skills, ~/.agents/skills, ...
// Each request then only does core's cheap change check, so edited SKILL.md files apply
// on the next message without a restart.
let skills: Promise<Skills> | undefined;

export function getSkills(): Promise<Skills> {
  skills ??= createSkills({ shelf: createShelf({ root: process.env.SKILLSHELF_ROOT ?? process.cwd() }) });
  return skills;
}
