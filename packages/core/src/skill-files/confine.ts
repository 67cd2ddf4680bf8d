/**
 * Resolving a path the model wrote to a file inside a skill's own folder, and nowhere else.
 * The path is hostile input: an absolute path, `..`, a hidden file, or a link whose target
 * lies outside the folder is refused; what is finally opened is checked again by its real
 * path, so a link planted inside the folder cannot lead out of it.
 */
import fs from "node:fs";
import path from "node:path";

/** Longest relative path accepted (a kilobyte of path is not a file name). */
export const MAX_PATH_LENGTH = 1_024;

export type Confined =
  | {
      ok: true;
      /** The path as asked, normalised. */
      relative: string;
      /** Where it really is, relative to the folder's real path (links inside resolved). */
      realRelative: string;
      real: string;
      stat: fs.Stats;
    }
  | { ok: false; error: "INVALID_PATH" | "NOT_FOUND" | "NOT_A_FILE"; problem: string };

/** The folder's real path, or undefined when it is gone. */
export function realFolder(dir: string): string | undefined {
  try {
    return fs.realpathSync(dir);
  } catch {
    return undefined;
  }
}

/**
 * The normalised relative form of `requested` (POSIX separators, `.` segments dropped), or
 * why it is refused. Nothing is read from disk here.
 */
export function relativeSkillPath(
  requested: unknown,
): { ok: true; relative: string } | { ok: false; problem: string } {
  if (typeof requested !== "string" || requested.trim() === "") {
    return { ok: false, problem: '"path" must be a file name relative to the skill folder' };
  }
  if (requested.length > MAX_PATH_LENGTH) return { ok: false, problem: "the path is too long" };
  if (/[\u0000-\u001f\u007f]/.test(requested))
    return { ok: false, problem: "the path has control characters" };
  const slashed = requested.trim().replace(/\\/g, "/");
  if (
    slashed.startsWith("/") ||
    slashed.startsWith("~") ||
    path.win32.isAbsolute(requested) ||
    /^[a-zA-Z]:/.test(slashed)
  ) {
    return { ok: false, problem: "absolute paths are not allowed: give a path relative to the skill folder" };
  }
  const segments = slashed.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.length === 0) return { ok: false, problem: "the path names the skill folder itself" };
  if (segments.some((s) => s === "..")) return { ok: false, problem: '".." is not allowed' };
  if (segments.some((s) => s.startsWith("."))) return { ok: false, problem: "hidden files are not readable" };
  return { ok: true, relative: segments.join("/") };
}

/**
 * The file at `requested` inside `dir`, by its real path. `under` limits it to one subfolder
 * (`scripts`). Links are followed only as far as they stay inside the folder's real path.
 */
export function confine(dir: string, requested: unknown, under?: string): Confined {
  const rel = relativeSkillPath(requested);
  if (!rel.ok) return { ok: false, error: "INVALID_PATH", problem: rel.problem };
  if (under !== undefined && !rel.relative.startsWith(`${under}/`)) {
    return { ok: false, error: "INVALID_PATH", problem: `the file must be under ${under}/` };
  }
  const root = realFolder(dir);
  if (root === undefined) return { ok: false, error: "NOT_FOUND", problem: "the skill folder is gone" };
  let real: string;
  try {
    real = fs.realpathSync(path.join(root, ...rel.relative.split("/")));
  } catch {
    return {
      ok: false,
      error: "NOT_FOUND",
      problem: `there is no file "${rel.relative}" in the skill folder`,
    };
  }
  const inside = path.relative(root, real);
  if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside)) {
    return { ok: false, error: "INVALID_PATH", problem: "the path leads out of the skill folder" };
  }
  const realSegments = inside.split(path.sep);
  if (realSegments.some((s) => s.startsWith("."))) {
    return { ok: false, error: "INVALID_PATH", problem: "the path leads to a hidden file" };
  }
  if (under !== undefined && realSegments[0] !== under) {
    return { ok: false, error: "INVALID_PATH", problem: `the file must be under ${under}/` };
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    return {
      ok: false,
      error: "NOT_FOUND",
      problem: `there is no file "${rel.relative}" in the skill folder`,
    };
  }
  // A FIFO or a device would block the read or never end: only regular files.
  if (!stat.isFile()) {
    return {
      ok: false,
      error: "NOT_A_FILE",
      problem: stat.isDirectory()
        ? `"${rel.relative}" is a folder`
        : `"${rel.relative}" is not a regular file`,
    };
  }
  return { ok: true, relative: rel.relative, realRelative: realSegments.join("/"), real, stat };
}
