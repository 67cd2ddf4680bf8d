/**
 * Where the real-world test data lives: `<shared>/data`, where `<shared>` is
 * `$SKILLSHELF_SHARED` or else the `shared` folder beside the repository (how CI lays it
 * out). The data is never copied into the repo, so a plain clone may not have it: tests
 * and benchmarks that need it skip there, but under CI a missing folder is an error, so a
 * broken checkout can never pass by skipping everything that reads real files.
 */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The variable that points at the shared folder (the one holding `data/`). */
export const SHARED_ENV = "SKILLSHELF_SHARED";

/** src/ and dist/ sit at the same depth, so this resolves from either. */
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** `$SKILLSHELF_SHARED` (relative to the working folder) or `<repo>/../shared`. */
export const SHARED_ROOT = resolve(process.env[SHARED_ENV] || join(REPO_ROOT, "..", "shared"));

/** `<shared>/data`, where every data set has its own folder and NOTICE. */
export const SHARED_DATA_DIR = join(SHARED_ROOT, "data");

/** CI sets CI=true (most providers) or CI=1; anything but empty, 0 or false counts. */
export const IN_CI = !/^(|0|false)$/i.test(process.env.CI ?? "");

/** Whether the shared data is here to read. */
export const hasSharedData = existsSync(SHARED_DATA_DIR) && statSync(SHARED_DATA_DIR).isDirectory();

/** One line saying what is missing and how to provide it. */
export const SHARED_DATA_NOTICE = `shared test data not found at ${SHARED_DATA_DIR}: set ${SHARED_ENV}=/path/to/shared (the folder holding data/) to run the tests and benchmarks that read it`;

/**
 * The absolute path of `relative` inside the shared data folder (a trailing `/` is kept).
 * Under CI a missing folder throws, so the file that needs it fails instead of skipping.
 */
export function sharedData(relative = ""): string {
  if (!hasSharedData && IN_CI) throw new Error(`CI=${process.env.CI}: ${SHARED_DATA_NOTICE}`);
  if (isAbsolute(relative))
    throw new Error(`sharedData() takes a path inside the data folder, not ${relative}`);
  const path = join(SHARED_DATA_DIR, relative);
  return relative === "" || relative.endsWith("/") ? `${path.replace(/\/+$/, "")}/` : path;
}
