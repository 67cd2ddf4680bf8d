/**
 * What the config file changes about where a shelf loads from: the file itself (for the
 * disable list) and, when package skills are on, the folders dependencies ship skills in,
 * appended to the project folders.
 */
import path from "node:path";
import { DEFAULT_PROJECT_DIRS, type SourceOptions } from "../load/sources.js";
import { packageSkillFolders } from "./package-skills.js";
import { defaultConfigFile, readShelfConfig } from "./shelf-config.js";

export interface ConfiguredSources {
  /** The config file to read the disable list from (undefined: none). */
  file?: string;
  sourceOptions: SourceOptions;
}

export async function configuredSources(
  options: SourceOptions & { config?: string | false; packageSkills?: boolean },
): Promise<ConfiguredSources> {
  const root = path.resolve(options.root ?? process.cwd());
  const file =
    options.config === false ? undefined : path.resolve(root, options.config ?? defaultConfigFile(root));
  const packageSkills =
    options.packageSkills ?? (file ? (await readShelfConfig(file)).config.packageSkills : false);
  if (!packageSkills) return { ...(file && { file }), sourceOptions: options };
  const folders = await packageSkillFolders(root);
  return {
    ...(file && { file }),
    sourceOptions: {
      ...options,
      projectDirs: [...(options.projectDirs ?? DEFAULT_PROJECT_DIRS), ...folders.map((f) => f.dir)],
    },
  };
}
