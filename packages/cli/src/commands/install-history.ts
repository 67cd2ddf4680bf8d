/**
 * An installed skill's history starts with the content installed, so a later hand edit
 * can be diffed and rolled back (`skillshelf history|diff|rollback`). A skill `--force`
 * replaces (or `update` replaces) keeps the content it had first, so the replacement can be
 * undone too; a hand edit `update` refuses to overwrite is kept all the same.
 */
import { createFileStateStore, parseSkill } from "@skillshelf/core";

/** Versions kept per skill, as the shelf's own writes keep them. */
const KEEP = 10;

export interface Baseline {
  name: string;
  /** The SKILL.md being replaced, when there was one. */
  replaced?: Buffer;
  /** What replaces it; none when nothing was installed (a refused update keeps only `replaced`). */
  installed?: Buffer;
  note: string;
  /** The ledger's note for `replaced`. */
  replacedNote?: string;
}

/** Records each skill's content as its newest version; returns the version id per name. */
export async function recordBaselines(
  stateDir: string,
  baselines: readonly Baseline[],
): Promise<Map<string, string>> {
  const state = createFileStateStore({ dir: stateDir });
  const ids = new Map<string, string>();
  try {
    for (const { name, replaced, installed, note, replacedNote } of baselines) {
      await state.writeSkill(name, async ({ history, ledger }) => {
        let before: string | null = null;
        if (replaced) {
          const kept = await history.add(name, replaced, { version: versionOf(replaced), keep: KEEP });
          before = kept.entry.hash;
          if (kept.added) {
            await ledger.append({
              type: "external-edit",
              skill: name,
              before: kept.previous?.hash ?? null,
              after: kept.entry.hash,
              versionId: kept.entry.id,
              note: replacedNote ?? "the content before skillshelf add --force replaced it",
            });
          }
          if (!installed) ids.set(name, kept.entry.id);
        }
        if (!installed) return;
        const version = versionOf(installed);
        const kept = await history.add(name, installed, { version, keep: KEEP });
        ids.set(name, kept.entry.id);
        if (kept.added) {
          await ledger.append({
            type: "external-edit",
            skill: name,
            before: kept.previous?.hash ?? before,
            after: kept.entry.hash,
            ...(version !== undefined && { version }),
            versionId: kept.entry.id,
            note,
          });
        }
      });
    }
  } finally {
    await state.close();
  }
  return ids;
}

function versionOf(content: Buffer): string | undefined {
  return parseSkill(content, {}).skill?.version;
}
