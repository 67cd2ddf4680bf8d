/**
 * The project's skillshelf settings file, `<root>/.skillshelf/config.json`:
 *
 *   { "disabled": ["deploy", "old-notes"], "packageSkills": true }
 *
 * - `disabled`: skills that stay loaded and listed but are never offered or activatable;
 * - `packageSkills`: also load the skills that installed npm packages ship (see package-skills.ts).
 *
 * JSON, not YAML: it is small and written by `skillshelf disable|enable` as well as by hand.
 * Unknown keys are ignored (a newer skillshelf may add some).
 */
import fs from "node:fs/promises";
import path from "node:path";

export const CONFIG_FILE = "config.json";

export interface ShelfConfig {
  disabled: string[];
  packageSkills?: boolean;
}

export interface ReadConfig {
  config: ShelfConfig;
  /** Why the file cannot be used, when it exists and is not a valid config. */
  problem?: string;
  /** The file was there. */
  exists: boolean;
}

/** The default place: `<root>/.skillshelf/config.json`. */
export function defaultConfigFile(root: string): string {
  return path.join(root, ".skillshelf", CONFIG_FILE);
}

export async function readShelfConfig(file: string): Promise<ReadConfig> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { config: { disabled: [] }, exists: false };
    return { config: { disabled: [] }, exists: true, problem: (error as Error).message };
  }
  return { ...parseShelfConfig(text), exists: true };
}

export function parseShelfConfig(text: string): Omit<ReadConfig, "exists"> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { config: { disabled: [] }, problem: `not valid JSON (${(error as Error).message})` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { config: { disabled: [] }, problem: "not a JSON object" };
  }
  const { disabled = [], packageSkills } = json as { disabled?: unknown; packageSkills?: unknown };
  if (!Array.isArray(disabled) || !disabled.every((n) => typeof n === "string")) {
    return { config: { disabled: [] }, problem: '"disabled" must be a list of skill names' };
  }
  if (packageSkills !== undefined && typeof packageSkills !== "boolean") {
    return { config: { disabled: [] }, problem: '"packageSkills" must be true or false' };
  }
  return {
    config: { disabled: [...new Set(disabled)], ...(packageSkills !== undefined && { packageSkills }) },
  };
}
