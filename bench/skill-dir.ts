/**
 * How the benches read one folder of skills: as the project's skills, with nothing else on
 * the shelf (no user folders, no builtin roles) and no event log. No imports but a type, so
 * a bench that times a fresh process or another build of core (SKILLSHELF_CORE) loads
 * nothing extra by using it.
 */
import path from "node:path";
import type { createShelf, Skill } from "@skillshelf/core";

export function skillDirOptions(dir: string) {
  return {
    root: path.dirname(dir),
    projectDirs: [dir],
    userDirs: [],
    builtinRoles: false,
    events: false as const,
  };
}

/** The skills of `dir`, read by the given build's `createShelf`; the shelf is closed again. */
export async function loadSkillsOf(create: typeof createShelf, dir: string): Promise<Skill[]> {
  const shelf = await create(skillDirOptions(dir));
  const skills = [...shelf.skills()];
  await shelf.close();
  return skills;
}
