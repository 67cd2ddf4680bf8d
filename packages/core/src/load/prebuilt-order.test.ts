import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf, type ShelfOptions } from "../shelf.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { decodePrebuiltFile, encodeRawPrebuiltFile } from "./prebuilt-format.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: these tests write what a hostile or broken file would hold
type LooseJson = any;

async function editStored(file: string, edit: (doc: LooseJson) => void): Promise<void> {
  const { json, ints } = decodePrebuiltFile(await fs.readFile(file));
  const doc = JSON.parse(json);
  edit(doc);
  await fs.writeFile(file, encodeRawPrebuiltFile(JSON.stringify(doc), ints.slice()));
}

async function builtProject(names: readonly string[]) {
  const root = await tempDir("skillshelf-prebuilt-order-");
  const skills = path.join(root, ".skillshelf/skills");
  for (const name of names) await writeSkill(skills, name, skillText(name));
  await buildPrebuiltShelf({ root, userDirs: [] });
  const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
  return { options, prebuilt: path.join(root, ".skillshelf/prebuilt-shelf.bin") };
}

const NAMES = ["alpha", "beta", "gamma", "delta", "epsilon"];

/** Each skill's description as served, by name. */
async function served(options: ShelfOptions) {
  const shelf = await createShelf(options);
  const descriptions = Object.fromEntries(shelf.skills().map((s) => [s.name, s.description]));
  const codes = shelf.diagnostics().map((d) => d.code);
  const stale = shelf.diagnostics().find((d) => d.code === "prebuilt-stale")?.message;
  await shelf.close();
  return { descriptions, codes, stale };
}

describe("prebuilt shelf: finding each scanned file's record", () => {
  it("takes every record when the files are stored in scan order, as a build writes them", async () => {
    const { options, prebuilt } = await builtProject(NAMES);
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files) file.skill.description = `${file.skill.name} from the prebuilt.`;
    });
    const { descriptions, codes } = await served(options);
    for (const name of NAMES) expect(descriptions[name]).toBe(`${name} from the prebuilt.`);
    expect(codes.filter((c) => c.startsWith("prebuilt-"))).toEqual([]);
  });

  it("takes every record when they are stored in another order (each found by its path)", async () => {
    const { options, prebuilt } = await builtProject(NAMES);
    await editStored(prebuilt, (doc) => {
      // The layout names files by position: without it the stored order is free.
      delete doc.index;
      doc.files.reverse();
      const [first, second] = [doc.files[0], doc.files[2]];
      doc.files[0] = second;
      doc.files[2] = first;
      for (const file of doc.files) file.skill.description = `${file.skill.name} from the prebuilt.`;
    });
    const { descriptions, codes } = await served(options);
    for (const name of NAMES) expect(descriptions[name]).toBe(`${name} from the prebuilt.`);
    expect(codes.filter((c) => c.startsWith("prebuilt-"))).toEqual([]);
  });

  it("a record stored under another file's path serves nothing of its own: each file gets only its own path's record", async () => {
    const { options, prebuilt } = await builtProject(NAMES);
    await editStored(prebuilt, (doc) => {
      delete doc.index;
      const beta = doc.files.find((f: LooseJson) => f.skill.name === "beta");
      const gamma = doc.files.find((f: LooseJson) => f.skill.name === "gamma");
      // gamma's record claims beta's path (and size): beta is found at most once, by its path.
      doc.files.push({ ...gamma, path: beta.path, size: beta.size, mtimeMs: beta.mtimeMs });
      for (const file of doc.files) file.skill.description = `${file.skill.name} from the prebuilt.`;
    });
    const { descriptions, stale } = await served(options);
    expect(Object.keys(descriptions).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(descriptions[name]).toBe(`${name} from the prebuilt.`);
    // The extra record is one no scanned file took.
    expect(stale).toContain("1 recorded file(s) are gone");
  });

  it("a changed file among records in scan order is read from its source, and the rest still taken", async () => {
    const { options, prebuilt } = await builtProject(NAMES);
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files) file.skill.description = `${file.skill.name} from the prebuilt.`;
    });
    const skills = path.join(options.root as string, ".skillshelf/skills");
    await writeSkill(skills, "gamma", skillText("gamma", "Gamma, edited since the build, longer."));
    await fs.rm(path.join(skills, "beta"), { recursive: true });
    const { descriptions, stale } = await served(options);
    expect(descriptions.gamma).toBe("Gamma, edited since the build, longer.");
    expect(descriptions.beta).toBeUndefined();
    for (const name of ["alpha", "delta", "epsilon"])
      expect(descriptions[name]).toBe(`${name} from the prebuilt.`);
    expect(stale).toContain("1 skill file(s) are new or changed");
    expect(stale).toContain("1 recorded file(s) are gone");
  });
});
