/**
 * What the loader keeps of a skill file that lost to another file of the same name: a copy is
 * never served, and on real shelves (the 15,725-file mirror) nearly half the files are copies,
 * whose bodies were half the heap. The loader reads the file again if it ever wins.
 *
 * One maker for both ways a stub comes about: a file read (or set aside after resolution) that
 * loses, and a lost file restored from a prebuilt shelf, which stores only the three fields a
 * stub does not take from the defaults (`{ name, hash, bodyLine }`, and `role` for a role).
 *
 * A stub of a role is a role: a role that lost to a better role is a duplicate of it, and
 * resolving again (a refresh, a start from a prebuilt shelf) must not make it an ordinary
 * skill that a role shadows (an error, where the file's own load gives a warning).
 */
import type { Skill, SkillMeta } from "../types.js";
import { defaultSkillMeta } from "./builtin.js";

/** The fields a stub does not use, shared by all stubs (a stub is never served). */
const STUB_META: Omit<SkillMeta, "name" | "description"> = deepFreeze(defaultSkillMeta());

function deepFreeze<T>(value: T): T {
  for (const item of Object.values(value as object)) if (typeof item === "object") Object.freeze(item);
  return Object.freeze(value);
}

/**
 * Only the fields resolution and the loader read as a stub's own (in the object, not in a
 * property array), and no string of the file's text; the rest come from the shared defaults
 * through the prototype. ≈ 130 bytes each less than a whole skill's shape.
 */
class LostStub {
  name: string;
  description = "";
  body = "";
  scope: Skill["scope"];
  file: Skill["file"];
  dir: Skill["dir"];
  hash: string;
  locked: boolean;
  bodyLine: number;
  role: boolean;
  constructor(
    name: string,
    scope: Skill["scope"],
    file: Skill["file"],
    dir: Skill["dir"],
    hash: string,
    locked: boolean,
    bodyLine: number,
    role: boolean,
  ) {
    this.name = name;
    this.scope = scope;
    this.file = file;
    this.dir = dir;
    this.hash = hash;
    this.locked = locked;
    this.bodyLine = bodyLine;
    this.role = role;
  }
}
Object.setPrototypeOf(LostStub.prototype, STUB_META);

/** The stub of `skill` (its name must already be a string of its own: it is kept as is). */
export function stubOf(skill: Skill): Skill {
  return new LostStub(
    skill.name,
    skill.scope,
    skill.file,
    skill.dir,
    skill.hash,
    skill.locked,
    skill.bodyLine,
    skill.role === true,
  ) as unknown as Skill;
}

/** The stub of a lost file restored from a prebuilt shelf: what it stored, placed where the scan found it. */
export function restoredStub(
  stored: { name: string; hash: string; bodyLine: number; role?: true },
  scope: Skill["scope"],
  file: string,
  dir: string,
): Skill {
  return new LostStub(
    stored.name,
    scope,
    file,
    dir,
    stored.hash,
    false,
    stored.bodyLine,
    stored.role === true,
  ) as unknown as Skill;
}

/** Whether `skill` is a stub: never served, read again from its file should it win. */
export function isLostStub(skill: Skill): boolean {
  return skill instanceof LostStub;
}

/** A stub as the plain skill object it stands for (what a prebuilt shelf records). */
export function plainStub(stub: Skill, hash = stub.hash): Skill {
  return {
    ...STUB_META,
    name: stub.name,
    description: "",
    body: "",
    scope: stub.scope,
    file: stub.file,
    dir: stub.dir,
    hash,
    locked: stub.locked,
    bodyLine: stub.bodyLine,
    role: stub.role,
  };
}
