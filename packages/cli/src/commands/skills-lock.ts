/**
 * `.skillshelf/skills.lock.json`: where each skill `skillshelf add` installed came from
 * (source, commit or version and integrity, the folder inside it) and the sha256 of every
 * file as installed, so a later change is visible, `update` knows what to fetch again and
 * `remove` only ever deletes what `add` put there.
 *
 * Read-modify-write happens under an exclusive lock file (a second `add` waits, then fails
 * rather than lose the other's entry) and lands by rename, so a reader never sees half a
 * file. A lock file that is not valid is never overwritten.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export const LOCK_FILE = "skills.lock.json";
const LOCK_WAIT_MS = 5_000;

export interface InstalledSkill {
  /** An absolute path, a git URL, or `npm:<name>@<range>`: what `update` fetches again. */
  source: string;
  kind: "folder" | "git" | "npm";
  /** The branch, tag or commit asked for (git). */
  ref?: string;
  /** The commit installed (git). */
  commit?: string;
  /** The package version installed and its tarball's integrity (npm). */
  version?: string;
  integrity?: string;
  /** The skill's folder inside the source (`.` when the source is the skill). */
  path: string;
  installedAt: string;
  /** Relative path → sha256, as installed. */
  files: Record<string, string>;
}

export interface SkillsLock {
  lockfileVersion: 1;
  skills: Record<string, InstalledSkill>;
}

export class LockFileError extends Error {}

export async function readSkillsLock(file: string): Promise<SkillsLock> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { lockfileVersion: 1, skills: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LockFileError(`${file} is not valid JSON; fix or delete it (it is never overwritten)`);
  }
  const lock = parsed as Partial<SkillsLock> | null;
  if (lock?.lockfileVersion !== 1 || typeof lock.skills !== "object" || lock.skills === null) {
    throw new LockFileError(
      `${file} is not a skillshelf lock file (lockfileVersion 1); it is never overwritten`,
    );
  }
  // A plain object with no prototype: a skill named "__proto__" stays an entry.
  return { lockfileVersion: 1, skills: Object.assign(Object.create(null), lock.skills) };
}

/** Runs `change` on the current lock file while holding it, and writes what it returns. */
export async function updateSkillsLock<T>(
  file: string,
  change: (lock: SkillsLock) => Promise<{ lock: SkillsLock; result: T }>,
): Promise<T> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const hold = `${file}.lock`;
  await acquire(hold);
  try {
    const { lock, result } = await change(await readSkillsLock(file));
    const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify(lock, null, 2)}\n`, { flag: "wx" });
    await fs.rename(temp, file);
    return result;
  } finally {
    await fs.rm(hold, { force: true });
  }
}

/** Creates `hold` exclusively, waiting a while for another skillshelf process to let go of it. */
export async function acquire(hold: string): Promise<void> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await fs.open(hold, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() > until) {
        throw new LockFileError(
          `${hold} is held by another skillshelf process; if none is running, delete that file and try again`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
