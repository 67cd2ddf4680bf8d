/**
 * Skills that npm packages ship: a dependency opts in with a field in its package.json,
 *
 *   "skillshelf": { "skills": "skills" }
 *
 * naming a folder inside the package laid out as a skills root (`skills/<name>/SKILL.md`).
 * Only the project's own dependencies are read (those its package.json lists, not whatever
 * else is in node_modules), and the folder must stay inside its package: a field that
 * climbs out, or a link that points elsewhere, is ignored. These skills are project skills,
 * after the project's own folders, so the trust gate withholds them like any other.
 */
import fs from "node:fs/promises";
import path from "node:path";

const PACKAGE_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/u;
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies"] as const;

export interface PackageSkillFolder {
  /** The package that ships it. */
  package: string;
  /** `<root>/node_modules/<package>/<folder>`. */
  dir: string;
}

/** The skill folders of the project's dependencies, sorted by package name. */
export async function packageSkillFolders(root: string): Promise<PackageSkillFolder[]> {
  const manifest = await readJson(path.join(root, "package.json"));
  const names = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) {
    const deps = manifest?.[field];
    if (deps && typeof deps === "object") for (const name of Object.keys(deps)) names.add(name);
  }
  const found: PackageSkillFolder[] = [];
  for (const name of [...names].sort()) {
    if (!PACKAGE_NAME.test(name)) continue;
    const packageDir = path.join(root, "node_modules", name);
    const declared = (await readJson(path.join(packageDir, "package.json")))?.skillshelf;
    const folder =
      declared && typeof declared === "object" ? (declared as { skills?: unknown }).skills : undefined;
    if (typeof folder !== "string" || folder === "") continue;
    const dir = path.resolve(packageDir, folder);
    if (await isInside(dir, packageDir)) found.push({ package: name, dir });
  }
  return found;
}

/** `dir` is a folder whose real path is inside `packageDir`'s (a package may itself be a link, as pnpm lays them out). */
async function isInside(dir: string, packageDir: string): Promise<boolean> {
  const [real, realPackage] = await Promise.all([
    fs.realpath(dir).catch(() => undefined),
    fs.realpath(packageDir).catch(() => undefined),
  ]);
  if (!real || !realPackage || !real.startsWith(`${realPackage}${path.sep}`)) return false;
  return (await fs.stat(real)).isDirectory();
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const json: unknown = JSON.parse(await fs.readFile(file, "utf8"));
    return json && typeof json === "object" && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
