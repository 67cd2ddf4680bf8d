// The stage-1 index laid out by `skillshelf build` for the list a shelf offers: a start from
// it plans exactly as a scanned one, uses it only for that list, and refuses a malformed one.
// Real folders and real prebuilt files, edited as a hostile or stale one would be.
import fs from "node:fs/promises";
import path from "node:path";
import { sharedData, skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { sharedVocabulary } from "../match/vocabulary.js";
import { createShelf, type ShelfOptions } from "../shelf.js";
import type { BuiltinSkill } from "../types.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { decodePrebuiltFile, encodeRawPrebuiltFile } from "./prebuilt-format.js";
import { tempDir, writeSkill } from "./test-utils/fixtures.js";

const DATA = sharedData();

// biome-ignore lint/suspicious/noExplicitAny: a hostile file's document, any shape at all
type LooseJson = any;

const skill = (name: string, description: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nSteps for ${name}.\n`;

const MESSAGES = [
  "write the release notes from the merged pull requests",
  "review this pull request for security problems",
  "make a pdf from these markdown files",
  "deploy the kubernetes cluster to production",
  "can i mix antifreeze with water",
];

/** A custom builtin, as an app passes it (not a role: the model is offered it). */
const GLOSSARY: BuiltinSkill = {
  meta: { name: "glossary", description: "Explains the project's own terms and abbreviations." },
  body: "Look the term up in the glossary.",
};

/**
 * Project skills over user skills (one name in both), a project skill named like a builtin
 * role, skills with and without examples.
 */
async function project() {
  const root = await tempDir("skillshelf-prebuilt-layout-");
  const projectDir = path.join(root, ".skillshelf/skills");
  const userDir = path.join(root, "home-skills");
  await writeSkill(
    projectDir,
    "release-notes",
    skill(
      "release-notes",
      "Writes release notes from merged pull requests.",
      'examples: ["write the release notes for 2.0", "changelog please"]\ntriggers: ["release notes"]\n',
    ),
  );
  await writeSkill(userDir, "release-notes", skill("release-notes", "The user's own release notes."));
  await writeSkill(userDir, "pdf-tools", skill("pdf-tools", "Makes PDF files from markdown documents."));
  await writeSkill(
    projectDir,
    "k8s-deploy",
    skill("k8s-deploy", "Deploys services to a Kubernetes cluster.", 'examples: ["deploy to the cluster"]\n'),
  );
  await writeSkill(projectDir, "reviewer", skill("reviewer", "Reviews pull requests for security problems."));
  await writeSkill(
    projectDir,
    "hidden",
    skill("hidden", "Runs by hand only.", "disable-model-invocation: true\n"),
  );
  const options: ShelfOptions = { root, projectDirs: [projectDir], userDirs: [userDir], events: false };
  return { root, options, prebuilt: path.join(root, ".skillshelf/prebuilt-shelf.bin") };
}

/** A new, empty vocabulary, as a fresh process has (the build's term numbers are then kept). */
function freshVocabulary(): void {
  sharedVocabulary().read("reset");
  sharedVocabulary(0);
}

async function plans(options: ShelfOptions) {
  const shelf = await createShelf(options);
  const out = MESSAGES.map((message) => shelf.session({ message, tools: ["Read"] }).plan().candidates);
  const matched = MESSAGES.map((message) => shelf.match(message));
  const problems = shelf.diagnostics().filter((d) => d.code.startsWith("prebuilt-"));
  await shelf.close();
  return { plans: out, matched, problems };
}

async function editStored(file: string, edit: (doc: LooseJson, ints: Int32Array) => void): Promise<void> {
  const { json, ints } = decodePrebuiltFile(await fs.readFile(file));
  const doc = JSON.parse(json);
  const copy = ints.slice();
  edit(doc, copy);
  await fs.writeFile(file, encodeRawPrebuiltFile(JSON.stringify(doc), copy));
}

/** Where each of the layout's arrays starts in the int32 section (see prebuilt-layout.ts). */
function arraysOf(doc: LooseJson) {
  const layout = doc.index.layout;
  const terms = doc.index.terms.length;
  const df = layout.at;
  const postingStart = df + terms;
  const postingDocs = postingStart + terms + 1;
  const postingWeights = postingDocs + Math.ceil(layout.postings / 2);
  const exampleStart = postingWeights + layout.postings;
  const exampleList = exampleStart + terms + 1;
  const exampleOwner = exampleList + layout.exampleIds;
  const exampleSlot = exampleOwner + layout.exampleCount;
  return { terms, df, postingStart, postingDocs, postingWeights, exampleStart, exampleOwner, exampleSlot };
}

const FLOAT_ONE = 0x3f800000;

describe("the index laid out by the build", () => {
  it("is stored for the list a default shelf offers, builtins resolved as the shelf does", async () => {
    const { root, options, prebuilt } = await project();
    await buildPrebuiltShelf({ root, projectDirs: options.projectDirs, userDirs: options.userDirs });
    const { json } = decodePrebuiltFile(await fs.readFile(prebuilt));
    const doc = JSON.parse(json);
    const names = doc.index.layout.skills.map((k: number) =>
      k >= 0 ? doc.files[k].skill.name : doc.index.layout.builtins[-1 - k].name,
    );
    // The project's release-notes over the user's; `reviewer` is the builtin role's name (a role
    // is never offered), `hidden` is not offered either.
    expect([...names].sort()).toEqual(["k8s-deploy", "pdf-tools", "release-notes"]);
    const shelf = await createShelf({ ...options, prebuilt: false });
    const offered = shelf
      .skills()
      .filter((s) => !s.role && !s.disableModelInvocation)
      .map((s) => s.name);
    expect(names).toEqual(offered);
    await shelf.close();
  });

  it("a start plans exactly as a scanned shelf: builtin roles on or off, a project skill over a user one, a custom builtin", async () => {
    const { root, options } = await project();
    for (const variant of [
      {},
      { builtinRoles: false },
      { builtins: [GLOSSARY] },
      { builtins: [GLOSSARY], builtinRoles: false },
    ] satisfies Partial<ShelfOptions>[]) {
      const shelfOptions = { ...options, ...variant };
      await buildPrebuiltShelf({ root, ...shelfOptions });
      const scanned = await plans({ ...shelfOptions, prebuilt: false });
      freshVocabulary();
      const fromPrebuilt = await plans(shelfOptions);
      expect(fromPrebuilt.problems).toEqual([]);
      expect(fromPrebuilt.plans).toEqual(scanned.plans);
      expect(fromPrebuilt.matched).toEqual(scanned.matched);
      expect(scanned.plans.some((candidates) => candidates.length > 0)).toBe(true);
    }
  });

  it("is used only for the list it was laid out for: another builtin text, other roles, another list is laid out again", async () => {
    const { root, options, prebuilt } = await project();
    for (const [built, started] of [
      [{ builtins: [GLOSSARY] }, { builtins: [{ ...GLOSSARY, body: "Another body: another hash." }] }],
      [{}, { builtinRoles: false }], // the project's `reviewer` is then offered
      [{ builtinRoles: false }, {}],
      [{}, { builtins: [GLOSSARY] }],
    ] satisfies Array<[Partial<ShelfOptions>, Partial<ShelfOptions>]>) {
      await buildPrebuiltShelf({ root, ...options, ...built });
      // A layout that would show if it were used: every posting the same weight.
      await editStored(prebuilt, (doc, ints) => {
        const at = arraysOf(doc);
        ints.fill(FLOAT_ONE, at.postingWeights, at.exampleStart);
      });
      const scanned = await plans({ ...options, ...started, prebuilt: false });
      freshVocabulary();
      const fromPrebuilt = await plans({ ...options, ...started });
      expect(fromPrebuilt.problems).toEqual([]);
      expect(fromPrebuilt.plans).toEqual(scanned.plans);
    }
  });

  it("a well-formed but wrong layout only steers routing: no crash, and what is offered is checked against its file", async () => {
    const { root, options, prebuilt } = await project();
    for (const variant of [
      { builtins: [GLOSSARY] },
      { builtinRoles: false },
      {},
    ] satisfies Partial<ShelfOptions>[]) {
      await buildPrebuiltShelf({ root, ...options, ...variant });
      const scanned = await plans({ ...options, ...variant, prebuilt: false });
      await editStored(prebuilt, (doc, ints) => {
        const at = arraysOf(doc);
        ints.fill(FLOAT_ONE, at.postingWeights, at.exampleStart);
      });
      freshVocabulary();
      const steered = await plans({ ...options, ...variant });
      expect(steered.problems).toEqual([]);
      // Used (the stored weights changed the scores).
      expect(steered.plans).not.toEqual(scanned.plans);
    }
    freshVocabulary();
    const shelf = await createShelf(options);
    const session = shelf.session({ message: MESSAGES[0], tools: ["Read"] });
    const top = session.plan().candidates[0];
    expect(top).toBeDefined();
    expect(session.activate(top!.name, { by: "model" }).status).toBe("success");
    await shelf.close();
  });

  it("refuses a malformed layout as a whole (prebuilt-unusable) and scans instead", async () => {
    const { root, options, prebuilt } = await project();
    await buildPrebuiltShelf({ root, ...options });
    const original = await fs.readFile(prebuilt);
    const scanned = await plans({ ...options, prebuilt: false });
    const tampers: Array<[string, (doc: LooseJson, ints: Int32Array) => void]> = [
      ["a list position past the files", (doc) => doc.index.layout.skills.push(doc.files.length)],
      ["a list position past the builtins", (doc) => (doc.index.layout.skills[0] = -1 - 5)],
      [
        "a list position of a file that lost",
        (doc) => (doc.index.layout.skills[0] = doc.files.findIndex((f: LooseJson) => f.lost)),
      ],
      [
        "a builtin without a hash",
        (doc) => doc.index.layout.builtins.push({ name: "x", hash: "", examples: 0 }),
      ],
      ["arrays past the end", (doc) => (doc.index.layout.at = 1 << 30)],
      ["a negative count", (doc) => (doc.index.layout.postings = -1)],
      ["postings counted wrong", (doc) => (doc.index.layout.postings += 2)],
      ["a posting of no skill", (doc, ints) => (ints[arraysOf(doc).postingDocs] = 0xffff)],
      ["a posting weight NaN", (doc, ints) => (ints[arraysOf(doc).postingWeights] = 0x7fc00000)],
      ["a posting weight 0", (doc, ints) => (ints[arraysOf(doc).postingWeights] = 0)],
      ["a negative weight", (doc, ints) => (ints[arraysOf(doc).postingWeights] = 0xbf800000 | 0)],
      ["posting starts out of order", (doc, ints) => (ints[arraysOf(doc).postingStart + 1] = -3)],
      ["a document frequency past the list", (doc, ints) => (ints[arraysOf(doc).df] = 1000)],
      ["an example of no skill", (doc, ints) => (ints[arraysOf(doc).exampleOwner] = 99)],
      ["an example slot past the skill's examples", (doc, ints) => (ints[arraysOf(doc).exampleSlot] = 2)],
      ["a reference above 1", (doc) => (doc.index.layout.references.skills = 1.5)],
      ["a layout that is no object", (doc) => (doc.index.layout = [1, 2])],
    ];
    for (const [what, tamper] of tampers) {
      await fs.writeFile(prebuilt, original);
      await editStored(prebuilt, tamper);
      freshVocabulary();
      const result = await plans(options);
      expect(
        result.problems.map((d) => d.code),
        what,
      ).toEqual(["prebuilt-unusable"]);
      expect(result.plans, what).toEqual(scanned.plans);
    }
  });

  it("on the real corpus, a start from the layout plans and matches exactly as a scanned one", async (ctx) => {
    skipWithoutSharedData(ctx);
    const root = await tempDir("skillshelf-prebuilt-layout-corpus-");
    const skills = path.join(root, ".skillshelf/skills");
    await fs.cp(path.join(DATA, "skills-corpus"), skills, { recursive: true, preserveTimestamps: true });
    const options: ShelfOptions = { root, userDirs: [], events: false };
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await plans({ ...options, prebuilt: false });
    freshVocabulary();
    const fromPrebuilt = await plans(options);
    expect(fromPrebuilt.problems).toEqual([]);
    expect(fromPrebuilt.plans).toEqual(scanned.plans);
    expect(fromPrebuilt.matched).toEqual(scanned.matched);
  }, 300_000);
});
