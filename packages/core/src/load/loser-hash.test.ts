/**
 * A file that loses to another of the same name as soon as it is read is not hashed during the
 * load (half the mirror's bytes are such copies); whatever reads a loser's hash later still
 * gets its file's: a prebuilt shelf's record, and the skill it becomes if its winner goes.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillLoader } from "./loader.js";
import { resolveSources } from "./sources.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** Two copies of `report` in one folder: `a-report` is read first and wins (same depth, path order). */
async function twoCopies() {
  const root = await tempDir();
  const project = path.join(root, ".skillshelf/skills");
  const first = await writeSkill(project, "a-report", skillText("report", "The first copy."));
  const second = await writeSkill(project, "b-report", skillText("report", "The second copy."));
  const loader = new SkillLoader({
    sources: resolveSources({ root, userDirs: [], projectDirs: [project] }),
  });
  await loader.load();
  return { loader, first, second };
}

const lostRecord = (loader: SkillLoader, file: string) =>
  [...loader.records()].find((record) => record.file === file);

describe("the hash of a copy that loses as soon as it is read", () => {
  it("is its file's in the records a prebuilt shelf stores", async () => {
    const { loader, first, second } = await twoCopies();
    expect(loader.get("report")?.file).toBe(first);
    const lost = lostRecord(loader, second);
    expect(lost?.lost).toBe(true);
    expect(lost?.skill?.hash).toBe(sha256(await fs.readFile(second)));
    expect(lostRecord(loader, first)?.skill?.hash).toBe(sha256(await fs.readFile(first)));
  });

  it("is vouched for by no record once the file is no longer the version the copy was made from", async () => {
    const { loader, second } = await twoCopies();
    // Another name, so another size and signature: the stub does not describe this file.
    await fs.writeFile(second, skillText("other-report", "Now something else."));
    expect(lostRecord(loader, second)?.skill?.hash).toBe("");
  });

  it("is its file's when the copy wins after all", async () => {
    const { loader, first, second } = await twoCopies();
    await fs.rm(path.dirname(first), { recursive: true });
    await loader.refresh();
    const promoted = loader.get("report");
    expect(promoted?.file).toBe(second);
    expect(promoted?.hash).toBe(sha256(await fs.readFile(second)));
    expect(promoted?.body).toContain("Steps for report.");
  });
});
