/**
 * A role that loses to another role of its name: what it is decides the loss (a duplicate, not
 * an ordinary skill shadowed by a role) and who wins when the winner stops being a role. Read
 * from its file on a prebuilt start, never taken from the stored claim.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf, type ShelfOptions } from "../shelf.js";
import { SkillLoader } from "./loader.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { decodePrebuiltFile, encodeRawPrebuiltFile } from "./prebuilt-format.js";
import { resolveSources } from "./sources.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: tampered document
type LooseJson = any;
async function editStored(file: string, edit: (doc: LooseJson) => void): Promise<void> {
  const { json, ints } = decodePrebuiltFile(await fs.readFile(file));
  const doc = JSON.parse(json);
  edit(doc);
  await fs.writeFile(file, encodeRawPrebuiltFile(JSON.stringify(doc), ints));
}
const codes = (root: string, ds: readonly { code: string; severity: string; file: string }[]) =>
  ds
    .filter((d) => !d.code.startsWith("prebuilt-") && d.code !== "name-mismatch")
    .map((d) => `${d.severity} ${d.code} ${path.relative(root, d.file)}`);
const options = (root: string): ShelfOptions => ({ root, userDirs: [], builtinRoles: false, events: false });

describe("a role that lost to a role", () => {
  it("a lost stub stored as a role is read from its file: a tampered `role: true` changes no note", async () => {
    const root = await tempDir("r2-f1-");
    const skills = path.join(root, ".skillshelf/skills");
    await writeSkill(skills, "a-deploy", skillText("deploy", "The role.", "role: true\n"));
    await writeSkill(skills, "b-deploy", skillText("deploy", "An ordinary copy."));
    await buildPrebuiltShelf({ root, userDirs: [], builtinRoles: false });
    await editStored(path.join(root, ".skillshelf/prebuilt-shelf.bin"), (doc) => {
      doc.files.find((f: LooseJson) => f.lost === true).skill.role = true;
    });
    const scanned = await createShelf({ ...options(root), prebuilt: false });
    const shelf = await createShelf(options(root));
    expect(codes(root, scanned.diagnostics())).toEqual([
      "error role-shadowed .skillshelf/skills/b-deploy/SKILL.md",
    ]);
    expect(codes(root, shelf.diagnostics())).toEqual(codes(root, scanned.diagnostics()));
    await shelf.close();
    await scanned.close();
  });

  it("after a refresh the losing role wins when the winning role stops being one (as a fresh load serves it)", async () => {
    const root = await tempDir("r2-f3-");
    const winner = await writeSkill(
      path.join(root, ".skillshelf/skills"),
      "deploy",
      skillText("deploy", "First role.", "role: true\n"),
    );
    const role = await writeSkill(
      path.join(root, ".agents/skills"),
      "deploy",
      skillText("deploy", "Second role.", "role: true\n"),
    );
    const loader = new SkillLoader({ sources: resolveSources({ root, userDirs: [] }) });
    await loader.load();
    await fs.writeFile(winner, skillText("deploy", "Now an ordinary skill, no longer a role."));
    await loader.refresh();
    expect(loader.get("deploy")?.file).toBe(role);
    expect(loader.get("deploy")?.role).toBe(true);
  });
});
