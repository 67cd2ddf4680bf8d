/**
 * The Shelf page's data: every resolved skill with its scope, file, the files it shadows,
 * its trust state and usage, and the diagnostics of files that could not be loaded — what
 * `skillshelf list` and `skillshelf stats` show, from the same core calls.
 */
import {
  builtinRoleSkills,
  type Diagnostic,
  defaultTrustFile,
  loadSkills,
  readTrustFile,
  type Shelf,
  trustStates,
  type UsageRecord,
} from "@skillshelf/core";

/**
 * A skill unused this long (or never) is flagged: `skillshelf stats`' default window, applied
 * to the usage record the catalog orders by (kept even when the event log is off).
 */
export const ZERO_USE_DAYS = 30;

export interface ShelfSkillRow {
  name: string;
  scope: string;
  file: string;
  description: string;
  version?: string;
  role: boolean;
  hidden: boolean;
  /** On the disable list: listed, never offered or activatable. */
  disabled: boolean;
  trust?: string;
  shadows: { file: string; scope: string; reason: string }[];
  usage: UsageRecord;
  zeroUse: boolean;
}

export interface ShelfOverview {
  sources: { dir: string; scope: string }[];
  skills: ShelfSkillRow[];
  diagnostics: Diagnostic[];
  zeroUseDays: number;
}

export async function shelfOverview(
  shelf: Shelf,
  home: string | undefined,
  now = Date.now(),
): Promise<ShelfOverview> {
  const { root, projectDirs, userDirs, claude } = shelf.options;
  // The loader's own result, for what the shelf keeps to itself: the files each winner shadows.
  const result = await loadSkills({
    root,
    projectDirs,
    userDirs,
    claude,
    home,
    mode: shelf.options.mode ?? "lenient",
    builtins: builtinRoleSkills(),
  });
  const trust = await trustStates(result.skills, (await readTrustFile(defaultTrustFile(home))).trust);
  const usage = shelf.options.usage?.all() ?? {};
  const cutoff = now - ZERO_USE_DAYS * 86_400_000;
  return {
    sources: result.sources.map(({ dir, scope }) => ({ dir, scope })),
    skills: result.skills.map((skill) => {
      const record = usage[skill.name] ?? { count: 0 };
      const lastUsed = record.lastUsed ? Date.parse(record.lastUsed) : Number.NaN;
      return {
        name: skill.name,
        scope: skill.scope,
        file: skill.file,
        description: skill.description,
        ...(skill.version !== undefined && { version: skill.version }),
        role: skill.role,
        hidden: skill.disableModelInvocation === true,
        disabled: shelf.isDisabled(skill),
        ...(trust.has(skill) && { trust: trust.get(skill)?.status }),
        shadows: result.overridden
          .filter((o) => o.by === skill.file)
          .map(({ file, scope, reason }) => ({ file, scope, reason })),
        usage: record,
        // Roles are delegated to, not activated: never flagged as unused.
        zeroUse: !skill.role && !(lastUsed >= cutoff),
      };
    }),
    diagnostics: [...result.diagnostics],
    zeroUseDays: ZERO_USE_DAYS,
  };
}
