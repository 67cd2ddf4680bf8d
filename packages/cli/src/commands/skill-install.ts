/**
 * The steps `add` and `update` share: find the skills in a fetched source, copy each next
 * to its destination first (so a copy that fails changes nothing installed), check the copy
 * is the skill that was validated, swap it in, and describe it for the lock file.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { checkName, readSkillFile } from "@skillshelf/core";
import { type CopiedFolder, copySkillFolder, InstallRefused } from "./skill-copy.js";
import type { OpenedSource } from "./skill-source.js";
import type { InstalledSkill } from "./skills-lock.js";
import { collect } from "./validate.js";

export interface FoundSkill {
  name: string;
  /** Absolute folder in the (fetched) source. */
  dir: string;
  /** The folder relative to the source's root, for the lock file (`/`-separated). */
  rel: string;
}

export interface StagedSkill {
  skill: FoundSkill;
  staged: string;
  copied: CopiedFolder;
}

/** The skill folders below `source.dir` (a folder inside another skill's is that skill's resource), or why not. */
export async function findSkills(source: Pick<OpenedSource, "dir" | "root">): Promise<FoundSkill[] | string> {
  const files = new Set<string>();
  await collect(source.dir, files);
  const folders = [...files].map((file) => path.dirname(file)).sort();
  const outermost = folders.filter(
    (dir, i) => !folders.slice(0, i).some((outer) => dir.startsWith(`${outer}${path.sep}`)),
  );
  const found: FoundSkill[] = [];
  const problems: string[] = [];
  for (const dir of outermost) {
    const rel = relativeTo(source.root, dir);
    const file = [...files].find((f) => path.dirname(f) === dir)!;
    const { skill } = await readSkillFile(file, {
      path: rel,
      mode: "lenient",
      folderName: path.basename(dir),
    });
    if (!skill) {
      problems.push(`${rel} does not load (see 'skillshelf validate')`);
      continue;
    }
    // The name becomes a folder: the core rules keep it a single, plain path segment.
    const invalid = checkName(skill.name);
    if (invalid.length > 0) problems.push(`${rel}: ${invalid[0]!.message}`);
    else if (found.some((f) => f.name === skill.name))
      problems.push(`${rel}: a second skill named ${skill.name}`);
    else found.push({ name: skill.name, dir, rel });
  }
  if (problems.length > 0) return `nothing was installed: ${problems.join("; ")}`;
  return found;
}

/** The skill at `rel` in a fetched source, when it is still there under the same name. */
export async function findSkillAt(
  source: Pick<OpenedSource, "root">,
  rel: string,
  name: string,
): Promise<FoundSkill | string> {
  const real = await fs.realpath(source.root);
  const named = path.resolve(real, rel);
  // Resolved: a folder on the way that is now a link must not lead out of the source.
  const dir = await fs.realpath(named).catch(() => named);
  if (dir !== real && !dir.startsWith(`${real}${path.sep}`)) return `${rel} is outside the source`;
  const info = await fs.lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return `the source no longer has ${rel}`;
  const { skill } = await readSkillFile(path.join(dir, "SKILL.md"), {
    path: rel,
    mode: "lenient",
    folderName: false,
  }).catch(() => ({ skill: undefined }));
  if (!skill) return `${rel}/SKILL.md no longer loads from the source (see 'skillshelf validate')`;
  if (skill.name !== name) return `${rel} is now the skill ${skill.name}, not ${name}`;
  return { name, dir, rel };
}

/** Copies every skill next to its destination first, so a copy that fails changes nothing installed. */
export async function stageAll(found: readonly FoundSkill[], skillsDir: string): Promise<StagedSkill[]> {
  await fs.mkdir(skillsDir, { recursive: true });
  const staged: StagedSkill[] = [];
  try {
    for (const skill of found) {
      const dir = path.join(skillsDir, `.${skill.name}.add-${randomBytes(6).toString("hex")}`);
      staged.push({ skill, staged: dir, copied: { files: {}, skipped: [] } });
      const copied = await copySkillFolder(skill.dir, dir);
      staged[staged.length - 1]!.copied = copied;
      // The copy is what gets installed: it must be the skill that was checked (a source
      // folder can change while it is read).
      const check = copied.files["SKILL.md"]
        ? await readSkillFile(path.join(dir, "SKILL.md"), { mode: "lenient", folderName: false })
        : undefined;
      if (check?.skill?.name !== skill.name) {
        throw new InstallRefused(`${skill.rel}/SKILL.md changed while it was copied; nothing was installed`);
      }
    }
  } catch (error) {
    await discard(staged);
    throw error;
  }
  return staged;
}

export async function discard(staged: readonly StagedSkill[]): Promise<void> {
  await Promise.all(staged.map((s) => fs.rm(s.staged, { recursive: true, force: true })));
}

/** Moves `staged` to `dest`; an existing `dest` is moved aside first and removed after. Returns its SKILL.md. */
export async function swapIn(staged: string, dest: string): Promise<Buffer | undefined> {
  const existing = await fs.lstat(dest).catch(() => undefined);
  if (!existing) {
    await fs.rename(staged, dest);
    return undefined;
  }
  const aside = `${dest}.replaced-${randomBytes(6).toString("hex")}`;
  const replaced = existing.isDirectory()
    ? await fs.readFile(path.join(dest, "SKILL.md")).catch(() => undefined)
    : undefined;
  await fs.rename(dest, aside);
  await fs.rename(staged, dest);
  await fs.rm(aside, { recursive: true, force: true });
  return replaced;
}

/** The lock-file entry of a skill installed from `source`. */
export function lockEntry(source: OpenedSource, staged: StagedSkill, installedAt: string): InstalledSkill {
  return {
    source: source.origin,
    kind: source.kind,
    ...(source.ref !== undefined && { ref: source.ref }),
    ...(source.commit && { commit: source.commit }),
    ...(source.version && { version: source.version }),
    ...(source.integrity && { integrity: source.integrity }),
    path: staged.skill.rel,
    installedAt,
    files: staged.copied.files,
  };
}

/** How the history note names where a skill came from. */
export function describeSource(source: OpenedSource): string {
  if (source.commit) return `${source.origin} at ${source.commit}`;
  if (source.version) return `${source.origin} (version ${source.version})`;
  return source.origin;
}

function relativeTo(root: string, dir: string): string {
  return path.relative(root, dir).split(path.sep).join("/") || ".";
}
