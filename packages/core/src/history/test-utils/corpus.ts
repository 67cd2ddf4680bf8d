/** Real SKILL.md files from the shared corpus, for tests (skipped when the data is absent). */
import { readSharedText, sharedData } from "@skillshelf/test-utils";

export const dataDir = sharedData();

/** A real SKILL.md from the shared corpus (by its MANIFEST path). */
export function corpusSkill(path: string): string {
  return readSharedText(`skills-corpus/${path}`);
}
