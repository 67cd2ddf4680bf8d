/**
 * A file that lost to another of the same name is stored as the three fields its stub does not
 * take from the defaults (`{ name, hash, bodyLine }`): a start remakes the stub resolution needs,
 * and anything else stored for a loser makes the file unusable (it is input, and a loser's stub
 * is never the file's own data). A file of the format before (full stubs) is not used either.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf, type ShelfOptions } from "../shelf.js";
import type { Diagnostic } from "../types.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { decodePrebuiltFile, encodeRawPrebuiltFile, PREBUILT_VERSION } from "./prebuilt-format.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: the document as a hostile or broken file would hold it
type LooseJson = any;

/** Two copies of `report` in one folder (`a-report` wins: same depth, path order) and one other skill. */
async function shelfWithALoser() {
  const root = await tempDir("skillshelf-prebuilt-lost-");
  const skills = path.join(root, ".skillshelf/skills");
  const winner = await writeSkill(skills, "a-report", skillText("report", "The first copy."));
  const loser = await writeSkill(skills, "b-report", skillText("report", "The second copy, longer."));
  await writeSkill(skills, "release-notes", skillText("release-notes", "Writes release notes."));
  const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
  await buildPrebuiltShelf({ root, userDirs: [], builtinRoles: false });
  return { root, winner, loser, options, prebuilt: path.join(root, ".skillshelf/prebuilt-shelf.bin") };
}

async function readStored(file: string): Promise<{ doc: LooseJson; ints: Int32Array }> {
  const { json, ints } = decodePrebuiltFile(await fs.readFile(file));
  return { doc: JSON.parse(json), ints };
}

async function editStored(file: string, edit: (doc: LooseJson) => void): Promise<void> {
  const { doc, ints } = await readStored(file);
  edit(doc);
  await fs.writeFile(file, encodeRawPrebuiltFile(JSON.stringify(doc), ints));
}

const lostFile = (doc: LooseJson) => doc.files.find((f: LooseJson) => f.lost === true);

const comparable = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => !d.code.startsWith("prebuilt-")).map((d) => `${d.code} ${d.file} ${d.message}`);

describe("a file that lost, in a prebuilt shelf", () => {
  it("is stored as its name, hash and body line, and a start resolves exactly as a scan", async () => {
    const { winner, loser, options, prebuilt } = await shelfWithALoser();
    const { doc } = await readStored(prebuilt);
    const stored = lostFile(doc);
    expect(stored.path).toBe(".skillshelf/skills/b-report/SKILL.md");
    expect(Object.keys(stored.skill).sort()).toEqual(["bodyLine", "hash", "name"]);
    expect(stored.skill.name).toBe("report");

    const scanned = await createShelf({ ...options, prebuilt: false });
    const shelf = await createShelf(options);
    expect(shelf.diagnostics().filter((d) => d.code.startsWith("prebuilt-"))).toEqual([]);
    expect(shelf.skills().map((s) => [s.name, s.file])).toEqual(
      scanned.skills().map((s) => [s.name, s.file]),
    );
    expect(shelf.get("report")?.file).toBe(winner);
    expect(comparable(shelf.diagnostics())).toEqual(comparable(scanned.diagnostics()));

    // The winner goes: the loser wins as its file is, description and body, not the stub.
    await fs.rm(path.dirname(winner), { recursive: true });
    await shelf.refresh();
    const revived = shelf.get("report");
    expect(revived?.file).toBe(loser);
    expect(revived?.description).toBe("The second copy, longer.");
    expect(revived?.body).toContain("Steps for report.");
    await shelf.close();
    await scanned.close();
  });

  const tampered: Array<[string, (stub: LooseJson) => void, RegExp]> = [
    [
      "a description on the stub",
      (stub) => (stub.description = "Use me for everything."),
      /files\[\d+\]\.skill:/u,
    ],
    ["tools on the stub", (stub) => (stub.allowedTools = ["Bash"]), /files\[\d+\]\.skill:/u],
    ["a stub without a hash", (stub) => delete stub.hash, /files\[\d+\]\.skill\.hash/u],
    ["a stub whose hash is not one", (stub) => (stub.hash = "x".repeat(64)), /files\[\d+\]\.skill\.hash/u],
    ["a stub whose name is not a string", (stub) => (stub.name = ["report"]), /files\[\d+\]\.skill\.name/u],
    [
      "a stub whose body line is not a number",
      (stub) => (stub.bodyLine = "6"),
      /files\[\d+\]\.skill\.bodyLine/u,
    ],
  ];
  for (const [label, edit, reason] of tampered) {
    it(`with ${label} is not used: a located diagnostic, and the folders are scanned`, async () => {
      const { options, prebuilt } = await shelfWithALoser();
      await editStored(prebuilt, (doc) => edit(lostFile(doc).skill));
      const scanned = await createShelf({ ...options, prebuilt: false });
      const shelf = await createShelf(options);
      const unusable = shelf.diagnostics().filter((d) => d.code === "prebuilt-unusable");
      expect(unusable).toHaveLength(1);
      expect(unusable[0]?.file).toBe(prebuilt);
      expect(unusable[0]?.message).toMatch(reason);
      expect(shelf.skills()).toEqual(scanned.skills());
      await shelf.close();
      await scanned.close();
    });
  }

  it("of the format before (a full stub, version 3) is not used: the folders are scanned", async () => {
    const { options, prebuilt } = await shelfWithALoser();
    expect(PREBUILT_VERSION).toBe(5);
    await editStored(prebuilt, (doc) => {
      doc.version = 3;
      const stub = lostFile(doc).skill;
      lostFile(doc).skill = {
        triggers: [],
        exclusions: [],
        examples: [],
        disallowedTools: [],
        disableModelInvocation: false,
        userInvocable: true,
        arguments: [],
        role: false,
        priority: 0,
        extra: {},
        ...stub,
        description: "",
      };
    });
    const scanned = await createShelf({ ...options, prebuilt: false });
    const shelf = await createShelf(options);
    const unusable = shelf.diagnostics().filter((d) => d.code === "prebuilt-unusable");
    expect(unusable.map((d) => d.message)).toEqual([
      expect.stringMatching(/version: 3, this version of skillshelf reads 5/u),
    ]);
    expect(shelf.skills()).toEqual(scanned.skills());
    await shelf.close();
    await scanned.close();
  });
});
