import fs from "node:fs/promises";
import path from "node:path";
import { sharedData, skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { everydayWeightsOf } from "../match/familiarity.js";
import { remapSkillTerms } from "../match/lexical-index.js";
import { sharedVocabulary } from "../match/vocabulary.js";
import { skillParameters } from "../parameters/skill-parameters.js";
import { createShelf, type ShelfOptions } from "../shelf.js";
import { trustSkillFolders } from "../trust/trust-folders.js";
import type { Diagnostic } from "../types.js";
import { coreVersion, MAX_PREBUILT_BYTES } from "./prebuilt.js";
import { buildPrebuiltShelf, checkPrebuiltShelf } from "./prebuilt-build.js";
import { decodePrebuiltFile, encodeRawPrebuiltFile } from "./prebuilt-format.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const DATA = sharedData();

const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => d.code);

const schemaOf = (property: string) =>
  `${JSON.stringify({ type: "object", properties: { [property]: { type: "string" } } })}\n`;

const propertiesOf = (skill: Parameters<typeof skillParameters>[0] | undefined) =>
  Object.keys(skill ? (skillParameters(skill).parameters?.schema.properties ?? {}) : {});

const RICH = `---
name: release-notes
description: Writes release notes from merged pull requests.
when_to_use: When the user asks for a changelog or release notes.
allowed-tools: Read Grep Bash(git log:*)
disallowed-tools: Write
disable-model-invocation: false
triggers: ["release notes", "/changelog for v\\\\d+/"]
exclusions: ["delete release"]
examples: ["write the release notes for 2.0", "changelog please"]
arguments: [version]
metadata: { owner: docs, tier: 2 }
hooks: { PreToolUse: [{ matcher: Bash }] }
model: small-model
paths: ["docs/**"]
x-team-field: [1, 2, 3]
---

# Release notes

Collect merged pull requests since $version and group them.
`;

const USER_ONLY = `---
name: deploy-prod
description: Deploys to production.
disable-model-invocation: true
allowed-tools: Read
---

Deploy with care.
`;

const WORKFLOW = `---
name: weekly-report
description: Writes the weekly report from this week's merged changes.
domain: reporting
parameters:
  type: object
  properties:
    week: { type: string, description: "ISO week, e.g. 2026-W49" }
  required: [week]
steps:
  - { id: collect, input: [week], output: changes }
---

Write the weekly report.
`;

/** A project root whose home folder is inside it, so the machine's own skills never leak in. */
async function project() {
  const root = await tempDir("skillshelf-prebuilt-");
  const skills = path.join(root, ".skillshelf/skills");
  const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
  return { root, skills, options, prebuilt: path.join(root, ".skillshelf/prebuilt-shelf.bin") };
}

/** The document as loose JSON: these tests write what a hostile or broken file would hold. */
// biome-ignore lint/suspicious/noExplicitAny: any shape at all, on purpose
type LooseJson = any;

async function editStored(file: string, edit: (doc: LooseJson, ints: Int32Array) => void): Promise<void> {
  const { json, ints } = decodePrebuiltFile(await fs.readFile(file));
  const doc = JSON.parse(json);
  const copy = ints.slice();
  edit(doc, copy);
  await fs.writeFile(file, encodeRawPrebuiltFile(JSON.stringify(doc), copy));
}

describe("prebuilt shelf", () => {
  it("round-trips every field of every skill, diagnostics included, without the shelf parsing the files", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await writeSkill(skills, "deploy-prod", USER_ONLY);
    await writeSkill(skills, "Bad_Name", skillText("Bad_Name"));
    await writeSkill(skills, "broken", "---\nname: broken\n");
    // Fields other engineers' parsers add (typed parameters, workflow steps, a domain) ride
    // along without the prebuilt format naming them.
    await writeSkill(skills, "weekly-report", WORKFLOW);
    await writeSkill(skills, "weekly-report", "Collect this week's merged changes.\n", "steps/01-collect.md");
    const scanned = await createShelf({ ...options, prebuilt: false });

    const built = await buildPrebuiltShelf({ root, userDirs: [] });
    expect(built.file).toBe(prebuilt);
    expect(built.files).toBe(5);
    const fromPrebuilt = await createShelf(options);

    expect(fromPrebuilt.skills()).toEqual(scanned.skills());
    expect(fromPrebuilt.diagnostics()).toEqual(scanned.diagnostics());
    expect(fromPrebuilt.get("release-notes")?.extra).toEqual({ "x-team-field": [1, 2, 3] });
    // The prebuilt's own copy is what the list serves: an edit to it (sizes and mtimes of the
    // sources unchanged) shows in skills(), so the files were not read.
    await editStored(prebuilt, (doc) => {
      doc.files.find((f: LooseJson) => f.skill?.name === "release-notes").skill.description =
        "From the prebuilt.";
    });
    const marked = await createShelf(options);
    expect(marked.skills().find((s) => s.name === "release-notes")?.description).toBe("From the prebuilt.");
    const carried = marked.skills().find((s) => s.name === "weekly-report") as unknown as Record<
      string,
      unknown
    >;
    const source = scanned.skills().find((s) => s.name === "weekly-report") as unknown as Record<
      string,
      unknown
    >;
    for (const field of ["parameters", "steps", "domain"]) {
      expect(source[field]).toBeDefined();
      expect(carried[field]).toEqual(source[field]);
    }
    for (const shelf of [scanned, fromPrebuilt, marked]) await shelf.close();
  });

  it("keeps its stored everyday weights to its own skills, never another shelf's in the process", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await writeSkill(skills, "deploy-prod", USER_ONLY);
    await buildPrebuiltShelf({ root, userDirs: [] });
    // Every term the most common word: a file that would make every request unfamiliar.
    await editStored(prebuilt, (doc) => {
      doc.index.everyday = doc.index.terms.flatMap((_: string, t: number) => [t, 0]);
    });
    const tampered = await createShelf(options);
    const other = await createShelf({ ...options, prebuilt: false });
    expect(everydayWeightsOf(tampered.skills())).toBeDefined();
    expect(everydayWeightsOf(other.skills())).toBeUndefined();
    for (const shelf of [tampered, other]) await shelf.close();
  });

  it("matches exactly like a scanned shelf on the real corpus (the index's terms come from the build)", async (ctx) => {
    skipWithoutSharedData(ctx);
    const { root, skills, options } = await project();
    const corpus = path.join(DATA, "skills-corpus");
    await fs.cp(corpus, skills, { recursive: true, preserveTimestamps: true });
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await createShelf({ ...options, prebuilt: false });
    const fromPrebuilt = await createShelf(options);
    expect(fromPrebuilt.skills().length).toBe(scanned.skills().length);
    expect(codes(fromPrebuilt.diagnostics()).filter((c) => c.startsWith("prebuilt"))).toEqual([]);
    const requests = [
      "write the release notes",
      "review this pull request for security problems",
      "make a pdf from these markdown files",
      "部署到生产环境",
      "deploy the kubernetes cluster",
      "help me write a blog post about testing",
    ];
    for (const request of requests) expect(fromPrebuilt.match(request)).toEqual(scanned.match(request));
    await scanned.close();
    await fromPrebuilt.close();
  }, 120_000); // the real corpus scanned and built: 13 s on a loaded CI machine

  it("serves the source, not a tampered prebuilt, once a skill is asked for: tools, model invocation, triggers", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await writeSkill(skills, "deploy-prod", USER_ONLY);
    await buildPrebuiltShelf({ root, userDirs: [] });
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files) {
        delete file.skill.allowedTools; // no whitelist = every tool
        file.skill.disallowedTools = [];
        file.skill.disableModelInvocation = false;
        file.skill.triggers = ["anything at all"];
      }
    });
    const shelf = await createShelf(options);
    const notes = shelf.get("release-notes");
    expect(notes?.allowedTools).toEqual(["Read", "Grep", "Bash(git log:*)"]);
    expect(notes?.disallowedTools).toEqual(["Write"]);
    expect(notes?.triggers).toEqual(["release notes", "/changelog for v\\d+/"]);
    // A session asks by name before it activates: the model cannot run the user-only skill.
    const session = shelf.session({ message: "deploy", tools: ["Read", "Bash"] });
    const activation = session.activate("deploy-prod", { by: "model" });
    expect(activation.status).toBe("error");
    expect(shelf.get("deploy-prod")?.disableModelInvocation).toBe(true);
    expect(shelf.skills().find((s) => s.name === "deploy-prod")?.allowedTools).toEqual(["Read"]);
    expect(codes(shelf.diagnostics()).filter((c) => c === "prebuilt-mismatch")).toHaveLength(2);
    await shelf.close();
  });

  it("a tampered phrase form steers routing at most: the skill it routes to is offered and activated from its file", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await writeSkill(
      skills,
      "deploy-prod",
      USER_ONLY.replace("allowed-tools: Read", "allowed-tools: Read\nuser-invocable: true"),
    );
    await writeSkill(skills, "pdf-tools", skillText("pdf-tools", "Makes PDF files from markdown."));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await createShelf({ ...options, prebuilt: false });
    // The stored phrase is what the name trigger tests: "kubernetes" now "mentions" pdf-tools.
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files)
        if (file.skill.name === "pdf-tools" || file.skill.name === "deploy-prod")
          file.phrases = [file.skill.name, "kubernet"];
      // A trigger's form too: "release notes" now reads as "cluster".
      for (const file of doc.files)
        if (file.skill.name === "release-notes") file.phrases = ["release notes", "cluster"];
    });
    const shelf = await createShelf(options);
    const message = "scale the kubernetes cluster";
    const scannedNames = scanned.match(message).candidates.map((c) => c.name);
    expect(scannedNames).not.toContain("pdf-tools");
    expect(scannedNames).not.toContain("release-notes");
    const routed = shelf.match(message).candidates.map((c) => c.name);
    expect(routed).toContain("pdf-tools");
    expect(routed).toContain("release-notes");
    const plan = shelf.session({ message, tools: ["Read"] }).plan();
    const pdfTool = plan.tools.find((t) => t.name === "skill_pdf-tools");
    expect(pdfTool?.description).toContain("Makes PDF files from markdown.");
    // A user-only skill stays user-only whatever routes to it.
    expect(plan.tools.map((t) => t.name)).not.toContain("skill_deploy-prod");
    const session = shelf.session({ message, tools: ["Read"] });
    expect(session.activate("deploy-prod", { by: "model" }).status).toBe("error");
    expect(codes(shelf.diagnostics()).filter((c) => c.startsWith("prebuilt"))).toEqual([]);
    await shelf.close();
    await scanned.close();
  });

  it("a skill with many triggers routes as scanned (its phrase forms are looked up by text)", async () => {
    const { root, skills, options } = await project();
    const triggers = Array.from({ length: 40 }, (_, i) => `"deploying service${i} * quickly"`);
    await writeSkill(
      skills,
      "many-triggers",
      skillText("many-triggers", "Deploys services.", `triggers: [${triggers.join(", ")}]\n`),
    );
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await createShelf({ ...options, prebuilt: false });
    const shelf = await createShelf(options);
    for (const message of ["deploy service7 very quickly", "deploying service39 quickly", "service12"])
      expect(shelf.match(message)).toEqual(scanned.match(message));
    expect(shelf.match("deploy service7 very quickly").candidates.map((c) => c.name)).toContain(
      "many-triggers",
    );
    await shelf.close();
    await scanned.close();
  });

  it("phrase forms read by another analysis are not used (names and triggers are stemmed again)", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "pdf-tools", skillText("pdf-tools", "Makes PDF files from markdown."));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await createShelf({ ...options, prebuilt: false });
    await editStored(prebuilt, (doc) => {
      doc.index.probe = ["another", "stemmer"];
      doc.files[0].phrases = ["pdf-tools", "kubernet"];
    });
    const shelf = await createShelf(options);
    for (const message of ["scale the kubernetes cluster", "use the pdf tools"])
      expect(shelf.match(message)).toEqual(scanned.match(message));
    await shelf.close();
    await scanned.close();
  });

  it("writes its document in ASCII and reads every character back; a UTF-8 document reads too", async () => {
    const { root, skills, options, prebuilt } = await project();
    const description = "部署到生产环境 🚀 — résumé, naïve ﬁle";
    await writeSkill(skills, "deploy-zh", skillText("deploy-zh", description));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const bytes = await fs.readFile(prebuilt);
    const length = bytes.readUInt32LE(8);
    expect(bytes.subarray(12, 12 + length).every((byte) => byte < 0x80)).toBe(true);
    const scanned = await createShelf({ ...options, prebuilt: false });
    const fromPrebuilt = await createShelf(options);
    expect(fromPrebuilt.skills()[0]?.description).toBe(description);
    expect(fromPrebuilt.skills()).toEqual(scanned.skills());
    // The same document as plain UTF-8 (what a hand-made file would hold).
    await editStored(prebuilt, () => {});
    expect(await fs.readFile(prebuilt, "utf8")).toContain("部署");
    const fromUtf8 = await createShelf(options);
    expect(fromUtf8.skills()).toEqual(scanned.skills());
    expect(codes(fromUtf8.diagnostics()).filter((c) => c.startsWith("prebuilt"))).toEqual([]);
    for (const shelf of [scanned, fromPrebuilt, fromUtf8]) await shelf.close();
  });

  it("carries no bodies: a body is read from its file when first needed, and activation gets it", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await buildPrebuiltShelf({ root, userDirs: [] });
    expect(await fs.readFile(prebuilt, "utf8")).not.toContain("Collect merged pull requests");
    const shelf = await createShelf(options);
    const session = shelf.session({ message: "write the release notes", tools: ["Read"] });
    const activation = session.activate("release-notes", { by: "model" });
    expect(activation.status).toBe("success");
    expect(activation.status === "success" && activation.data.instructions).toContain(
      "Collect merged pull requests since",
    );
    const scanned = await createShelf({ ...options, prebuilt: false });
    expect(shelf.skills()[0]?.body).toBe(scanned.skills()[0]?.body);
    await scanned.close();
    expect(codes(shelf.diagnostics()).filter((c) => c.startsWith("prebuilt"))).toEqual([]);
    await shelf.close();
  });

  it("a file changed without its size or mtime moving is caught when the skill is used: the file wins", async () => {
    const { root, skills, options } = await project();
    const file = await writeSkill(skills, "deploy-prod", USER_ONLY);
    const second = 1_700_000_000; // whole seconds: utimes keeps them exactly
    await fs.utimes(file, second, second);
    await buildPrebuiltShelf({ root, userDirs: [] });
    await fs.writeFile(
      file,
      USER_ONLY.replace("allowed-tools: Read", "allowed-tools: Bash").replace("care", "CARE"),
    );
    await fs.utimes(file, second, second);
    const shelf = await createShelf(options);
    const listed = shelf.skills()[0]!;
    expect(listed.allowedTools).toEqual(["Read"]); // the list is the prebuilt's until the skill is used
    expect(listed.body).toBe(""); // its body is no longer the file's: none
    expect(shelf.get("deploy-prod")?.allowedTools).toEqual(["Bash"]);
    expect(shelf.get("deploy-prod")?.body).toContain("Deploy with CARE.");
    expect(shelf.skills()[0]?.allowedTools).toEqual(["Bash"]);
    expect(codes(shelf.diagnostics())).toContain("prebuilt-mismatch");
    await shelf.close();
  });

  it("roles come from their files: a prebuilt cannot widen a role's tools or make a skill a role", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(
      skills,
      "reviewer",
      "---\nname: reviewer\ndescription: Reviews changes.\nrole: true\nallowed-tools: Read\n---\n\nReview the diff.\n",
    );
    await writeSkill(skills, "release-notes", RICH);
    await buildPrebuiltShelf({ root, userDirs: [] });
    const untouched = await createShelf(options);
    // Reading a role from its file is not staleness.
    expect(codes(untouched.diagnostics()).filter((c) => c.startsWith("prebuilt"))).toEqual([]);
    await untouched.close();
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files) {
        file.skill.role = true;
        file.skill.allowedTools = ["Bash", "Write"];
      }
    });
    const shelf = await createShelf(options);
    const roles = shelf.roles();
    expect(roles.map((r) => r.name)).toEqual(["reviewer"]);
    expect(roles[0]?.allowedTools).toEqual(["Read"]);
    expect(roles[0]?.instructions).toBe("Review the diff.");
    await shelf.close();
  });

  it("a prebuilt skill whose file is gone or names another skill is served by no call, until a refresh", async () => {
    const { root, skills, options, prebuilt } = await project();
    const gone = await writeSkill(skills, "alpha", skillText("alpha"));
    await writeSkill(skills, "beta", skillText("beta"));
    await buildPrebuiltShelf({ root, userDirs: [] });
    await editStored(prebuilt, (doc) => {
      doc.files.find((f: LooseJson) => f.skill.name === "beta").skill.name = "gamma";
    });
    const shelf = await createShelf({ ...options, refreshCheck: "stat" });
    await fs.rm(gone);
    expect(shelf.get("alpha")).toBeUndefined();
    expect(shelf.get("alpha")).toBeUndefined();
    expect(shelf.get("gamma")).toBeUndefined(); // its file says beta
    expect(shelf.get("gamma")).toBeUndefined();
    expect(shelf.skills().map((s) => s.name)).toEqual([]);
    await shelf.refresh();
    expect(shelf.skills().map((s) => s.name)).toEqual(["beta"]);
    await shelf.close();
  });

  it("the trust gate judges prebuilt skills like scanned ones: untrusted withheld, trusted served", async () => {
    const { root, skills, options } = await project();
    await writeSkill(skills, "alpha", skillText("alpha"));
    await writeSkill(skills, "beta", skillText("beta"));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const trustFile = path.join(root, "trust.json");
    await trustSkillFolders(path.join(skills, "alpha"), { file: trustFile });
    const gated = { ...options, trust: { file: trustFile } };
    const scanned = await createShelf({ ...gated, prebuilt: false });
    const shelf = await createShelf(gated);
    const plan = (s: typeof shelf) => s.session({ message: "beta things", tools: [] }).plan();
    expect(plan(shelf).system).toEqual(plan(scanned).system);
    expect(plan(shelf).system).not.toContain("beta");
    expect(shelf.trustOf("alpha")?.status).toBe("trusted");
    expect(shelf.trustOf("beta")?.status).toBe("untrusted");
    expect(shelf.session({ tools: [] }).activate("beta", { by: "model" }).status).toBe("error");
    expect(shelf.session({ tools: [] }).activate("alpha", { by: "model" }).status).toBe("success");
    await shelf.close();
    await scanned.close();
  });

  it("checkPrebuiltShelf finds a tampered entry without waiting for the skill to be used", async () => {
    const { root, skills, prebuilt } = await project();
    await writeSkill(skills, "deploy-prod", USER_ONLY);
    await buildPrebuiltShelf({ root, userDirs: [] });
    expect((await checkPrebuiltShelf({ root, userDirs: [] })).ok).toBe(true);
    await editStored(prebuilt, (doc) => {
      doc.files[0].skill.disableModelInvocation = false;
    });
    const checked = await checkPrebuiltShelf({ root, userDirs: [] });
    expect(checked.ok).toBe(false);
    expect(codes(checked.problems)).toEqual(["prebuilt-mismatch"]);
  });

  it("reads files changed, added or removed since the build from their sources, and says the prebuilt is stale", async () => {
    const { root, skills, options } = await project();
    const edited = await writeSkill(skills, "alpha", skillText("alpha", "Old alpha."));
    const removed = await writeSkill(skills, "beta", skillText("beta"));
    await buildPrebuiltShelf({ root, userDirs: [] });
    await fs.writeFile(edited, skillText("alpha", "New alpha, longer than before.", "allowed-tools: Read\n"));
    await fs.rm(path.dirname(removed), { recursive: true });
    await writeSkill(skills, "gamma", skillText("gamma"));
    const shelf = await createShelf(options);
    expect(shelf.skills().map((s) => s.name)).toEqual(["alpha", "gamma"]);
    expect(shelf.skills()[0]?.description).toBe("New alpha, longer than before.");
    expect(shelf.skills()[0]?.allowedTools).toEqual(["Read"]);
    const stale = shelf.diagnostics().find((d) => d.code === "prebuilt-stale");
    expect(stale?.message).toContain("2 skill file(s) are new or changed");
    expect(stale?.message).toContain("1 recorded file(s) are gone");
    await shelf.close();
  });

  it("hot reload works after a prebuilt start: nothing changed is nothing, an edit is read", async () => {
    const { root, skills, options } = await project();
    const file = await writeSkill(skills, "alpha", skillText("alpha", "Old alpha."));
    await writeSkill(skills, "beta", skillText("beta"));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const shelf = await createShelf({ ...options, refreshCheck: "stat" });
    const before = shelf.skills();
    expect((await shelf.refresh()).changed).toBe(false);
    expect(shelf.skills()).toBe(before);
    await fs.writeFile(file, skillText("alpha", "New alpha, with tools.", "allowed-tools: Read\n"));
    const change = await shelf.refresh();
    expect(change.updated).toEqual(["alpha"]);
    expect(shelf.get("alpha")).toMatchObject({
      description: "New alpha, with tools.",
      allowedTools: ["Read"],
    });
    expect(codes(shelf.diagnostics()).filter((c) => c.startsWith("prebuilt"))).toEqual([]);
    await shelf.close();
  });

  it("a skill's schema.json is read from its folder, whatever the prebuilt says of it; a start stats only those it names", async () => {
    const { root, skills, options, prebuilt } = await project();
    const typed = await writeSkill(skills, "deploy", skillText("deploy", "Deploys the app."));
    const typedSchema = path.join(path.dirname(typed), "schema.json");
    await fs.writeFile(typedSchema, schemaOf("target"));
    const plain = await writeSkill(skills, "notes", skillText("notes", "Takes notes."));
    const plainSchema = path.join(path.dirname(plain), "schema.json");
    await buildPrebuiltShelf({ root, userDirs: [] });
    const recorded = JSON.parse(decodePrebuiltFile(await fs.readFile(prebuilt)).json);
    const flag = (name: string) => recorded.files.find((f: LooseJson) => f.skill?.name === name).schema;
    expect([flag("deploy"), flag("notes")]).toEqual([true, undefined]);

    // Untouched: the baseline is the folder as built, and nothing changed is nothing.
    const untouched = await createShelf({ ...options, refreshCheck: "stat" });
    expect(propertiesOf(untouched.get("deploy"))).toEqual(["target"]);
    expect((await untouched.refresh()).changed).toBe(false);
    await untouched.close();

    // A schema.json added since the build, and a prebuilt that hides the one that is there:
    // the parameters come from the files, and the next refresh reads both skills again.
    await fs.writeFile(plainSchema, schemaOf("topic"));
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files) delete file.schema;
    });
    const shelf = await createShelf({ ...options, refreshCheck: "stat" });
    expect(propertiesOf(shelf.get("deploy"))).toEqual(["target"]);
    expect(propertiesOf(shelf.get("notes"))).toEqual(["topic"]);
    // Asked for by name, each was checked against its folder: the schema.json there then is
    // the baseline (a skill not yet used is read again by the next refresh).
    expect((await shelf.refresh()).changed).toBe(false);
    expect(propertiesOf(shelf.get("deploy"))).toEqual(["target"]);
    await fs.writeFile(typedSchema, schemaOf("region"));
    await shelf.refresh();
    expect(propertiesOf(shelf.get("deploy"))).toEqual(["region"]);
    await shelf.close();
  });

  it("a recorded path in a form a build does not write matches no file: that skill is read from its source", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await writeSkill(skills, "deploy-prod", USER_ONLY);
    await buildPrebuiltShelf({ root, userDirs: [] });
    await editStored(prebuilt, (doc) => {
      for (const file of doc.files) file.skill.description = "From the prebuilt.";
      const notes = doc.files.find((f: LooseJson) => f.skill.name === "release-notes");
      notes.path = notes.path.replace("/release-notes/", "/../skills/./release-notes/");
    });
    const shelf = await createShelf(options);
    const description = (name: string) => shelf.skills().find((s) => s.name === name)?.description;
    expect(description("release-notes")).toBe("Writes release notes from merged pull requests.");
    expect(description("deploy-prod")).toBe("From the prebuilt.");
    expect(codes(shelf.diagnostics())).toContain("prebuilt-stale");
    await shelf.close();
  });

  it("a managed write to a prebuilt skill serves the written version at once", async () => {
    const { root, skills, options } = await project();
    await writeSkill(skills, "alpha", skillText("alpha", "Old alpha."));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const shelf = await createShelf(options);
    const hash = shelf.get("alpha")!.hash;
    const written = await shelf.write("alpha", skillText("alpha", "Written alpha."), { expectedHash: hash });
    expect(written.changed).toBe(true);
    expect(shelf.get("alpha")?.description).toBe("Written alpha.");
    expect(shelf.skills()[0]?.description).toBe("Written alpha.");
    await shelf.close();
  });

  it("moves with the app: a copy of the project elsewhere still uses it, mtimes kept or not", async () => {
    const { root, skills, options } = await project();
    await writeSkill(skills, "alpha", skillText("alpha"));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const moved = path.join(await tempDir("skillshelf-moved-"), "app");
    await fs.cp(root, moved, { recursive: true, preserveTimestamps: true });
    const prebuilt = path.join(moved, ".skillshelf/prebuilt-shelf.bin");
    await editStored(prebuilt, (doc) => {
      doc.files[0].skill.description = "From the prebuilt.";
    });
    const shelf = await createShelf({ ...options, root: moved });
    expect(shelf.diagnostics()).toEqual([]);
    expect(shelf.skills()[0]?.description).toBe("From the prebuilt.");
    expect(shelf.skills()[0]?.file).toBe(path.join(moved, ".skillshelf/skills/alpha/SKILL.md"));
    await shelf.close();
    // A checkout or an archive gives new mtimes: same bytes, so the prebuilt still holds.
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(path.join(moved, ".skillshelf/skills/alpha/SKILL.md"), later, later);
    const touched = await createShelf({ ...options, root: moved });
    expect(touched.diagnostics()).toEqual([]);
    expect(touched.skills()[0]?.description).toBe("From the prebuilt.");
    await touched.close();
  });

  it("loads from a read-only folder and writes nothing there", async () => {
    const { root, skills, options } = await project();
    await writeSkill(skills, "alpha", skillText("alpha"));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const before = await listing(root);
    // Root ignores permissions, so "read-only" is checked as "nothing written".
    await fs.chmod(path.join(root, ".skillshelf"), 0o555);
    try {
      const shelf = await createShelf({ ...options, refreshCheck: "stat" });
      expect(shelf.skills().map((s) => s.name)).toEqual(["alpha"]);
      expect(shelf.match("alpha things").candidates[0]?.name).toBe("alpha");
      await shelf.refresh();
      await shelf.close();
    } finally {
      await fs.chmod(path.join(root, ".skillshelf"), 0o755);
    }
    expect(await listing(root)).toEqual(before);
  });

  describe("a corrupt or foreign prebuilt shelf is not used: a located diagnostic, and the folders are scanned", () => {
    const cases: Array<[string, (file: string) => Promise<void>, RegExp, number?]> = [
      [
        "a file cut short",
        async (f) => fs.writeFile(f, (await fs.readFile(f)).subarray(0, 200)),
        /the document is cut short/u,
      ],
      [
        "an int32 section that is not whole int32s",
        async (f) => fs.writeFile(f, Buffer.concat([await fs.readFile(f), Buffer.from([1])])),
        /\(terms\): not whole int32s/u,
      ],
      [
        "a file over the size limit (not read at all)",
        (f) => fs.truncate(f, MAX_PREBUILT_BYTES + 1),
        /over the 536870912-byte limit/u,
      ],
      [
        "a JSON error on line 3",
        (f) =>
          fs.writeFile(
            f,
            encodeRawPrebuiltFile('{\n"format": "skillshelf-prebuilt-shelf",\n"version": 1,,\n}'),
          ),
        /not valid JSON/u,
        3,
      ],
      [
        "a wrong field type",
        (f) =>
          editStored(f, (doc) => {
            doc.files[0].skill.triggers = "release notes";
          }),
        /files\[0\]\.skill\.triggers/u,
      ],
      [
        "a metadata value that is not a string",
        (f) =>
          editStored(f, (doc) => {
            doc.files[0].skill.metadata = { owner: { nested: true } };
          }),
        /files\[0\]\.skill\.metadata/u,
      ],
      [
        "a value nested 100,000 levels deep (JSON.parse takes it; a later walk would overflow the stack)",
        async (f) => {
          const { json, ints } = decodePrebuiltFile(await fs.readFile(f));
          const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
          await fs.writeFile(
            f,
            encodeRawPrebuiltFile(json.replace('"extra":{', `"extra":{"x":${deep},`), ints),
          );
        },
        /files\[0\]\.skill\.extra: nested deeper than 260 levels/u,
      ],
      [
        "a schema.json flag that is not true",
        (f) =>
          editStored(f, (doc) => {
            doc.files[0].schema = "yes";
          }),
        /files\[0\]\.schema: not true/u,
      ],
      [
        "a phrase form that is not one (two spaces)",
        (f) =>
          editStored(f, (doc) => {
            doc.files[0].phrases = ["release-notes", "releas  note"];
          }),
        /files\[0\]\.phrases/u,
      ],
      [
        "phrases that are not pairs of strings",
        (f) =>
          editStored(f, (doc) => {
            doc.files[0].phrases = ["release-notes", "releas note", "release notes"];
          }),
        /files\[0\]\.phrases/u,
      ],
      [
        "a loader field smuggled in",
        (f) =>
          editStored(f, (doc) => {
            doc.files[0].skill.locked = true;
          }),
        /files\[0\]\.skill\.locked/u,
      ],
      [
        "everyday weights that are not pairs",
        (f) =>
          editStored(f, (doc) => {
            doc.index.everyday = [...doc.index.everyday, 0];
          }),
        /index\.everyday: not pairs of a term and a weight/u,
      ],
      [
        "an everyday weight above 1",
        (f) =>
          editStored(f, (doc) => {
            doc.index.everyday[1] = 1.5;
          }),
        /index\.everyday/u,
      ],
      [
        "an everyday weight that is not a number",
        (f) =>
          editStored(f, (doc) => {
            doc.index.everyday[1] = "0.2";
          }),
        /index\.everyday/u,
      ],
      [
        "an everyday weight for a term past the index's terms",
        (f) =>
          editStored(f, (doc) => {
            doc.index.everyday[0] = doc.index.terms.length;
          }),
        /index\.everyday/u,
      ],
      [
        "an everyday weight for a negative term",
        (f) =>
          editStored(f, (doc) => {
            doc.index.everyday[0] = -1;
          }),
        /index\.everyday/u,
      ],
      [
        "another format version",
        (f) =>
          editStored(f, (doc) => {
            doc.version = 99;
          }),
        /version: 99/u,
      ],
      [
        "another core version",
        (f) =>
          editStored(f, (doc) => {
            doc.core = "0.0.0-other";
          }),
        /built by @skillshelf\/core 0\.0\.0-other/u,
      ],
      [
        "index terms read by another version of the analysis (a build before the stemmer changed)",
        (f) =>
          editStored(f, (doc) => {
            doc.index.probe = doc.index.probe.filter((line: string) => !line.startsWith("stage-1 terms "));
          }),
        /index terms were read by another version of the analysis/u,
      ],
      [
        "other source folders",
        (f) =>
          editStored(f, (doc) => {
            doc.sources = [{ dir: "elsewhere", scope: "project" }];
          }),
        /other skill folders/u,
      ],
      [
        "not a prebuilt shelf at all",
        (f) => fs.writeFile(f, '{"format": "skillshelf-prebuilt-shelf"}'),
        /SKSHELF1/u,
      ],
    ];
    for (const [label, corrupt, reason, line] of cases) {
      it(label, async () => {
        const { root, skills, options, prebuilt } = await project();
        await writeSkill(skills, "release-notes", RICH);
        await buildPrebuiltShelf({ root, userDirs: [] });
        await corrupt(prebuilt);
        const scanned = await createShelf({ ...options, prebuilt: false });
        const shelf = await createShelf(options);
        const unusable = shelf.diagnostics().filter((d) => d.code === "prebuilt-unusable");
        expect(unusable).toHaveLength(1);
        expect(unusable[0]?.file).toBe(prebuilt);
        expect(unusable[0]?.message).toMatch(reason);
        if (line !== undefined) expect(unusable[0]?.line).toBe(line);
        expect(shelf.skills()).toEqual(scanned.skills());
        await shelf.close();
        await scanned.close();
      });
    }

    it("an explicit path that does not exist is reported; the default location when absent is not", async () => {
      const { skills, options } = await project();
      await writeSkill(skills, "alpha", skillText("alpha"));
      const quiet = await createShelf(options);
      expect(codes(quiet.diagnostics())).toEqual([]);
      const told = await createShelf({ ...options, prebuilt: "build/shelf.bin" });
      expect(codes(told.diagnostics())).toEqual(["prebuilt-unusable"]);
      expect(told.skills().map((s) => s.name)).toEqual(["alpha"]);
      await quiet.close();
      await told.close();
    });
  });

  it("ignores malformed index terms (the skill's text is read instead) and never indexes out of range", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await createShelf({ ...options, prebuilt: false });
    await editStored(prebuilt, (doc, ints) => {
      const [start, length] = doc.files[0].terms;
      ints[start + length - 2] = 1 << 30; // an example id far past the vocabulary
    });
    const pastTheEnd = await project();
    await writeSkill(pastTheEnd.skills, "release-notes", RICH);
    await buildPrebuiltShelf({ root: pastTheEnd.root, userDirs: [] });
    await editStored(pastTheEnd.prebuilt, (doc) => {
      doc.files[0].terms = [0, 1 << 30]; // a run past the end of the int32s
    });
    const past = await createShelf(pastTheEnd.options);
    expect(past.match("write the release notes for 2.0")).toEqual(
      scanned.match("write the release notes for 2.0"),
    );
    await past.close();
    const shelf = await createShelf(options);
    expect(shelf.match("write the release notes for 2.0")).toEqual(
      scanned.match("write the release notes for 2.0"),
    );
    expect(remapSkillTerms(new Int32Array([1, 2, 3]), new Int32Array(10), 0)).toBeUndefined();
    await shelf.close();
    await scanned.close();
  });
});

describe("in a fresh process's vocabulary (the build's term numbers are kept, not mapped)", () => {
  it("uses the stored terms as they are, and still refuses a malformed run", async () => {
    const { root, skills, options, prebuilt } = await project();
    await writeSkill(skills, "release-notes", RICH);
    await writeSkill(skills, "pdf-tools", skillText("pdf-tools", "Makes PDF files from markdown."));
    await buildPrebuiltShelf({ root, userDirs: [] });
    const scanned = await createShelf({ ...options, prebuilt: false });
    const messages = ["write the release notes for 2.0", "make a pdf from markdown"];
    const expected = messages.map((m) => scanned.match(m));
    await scanned.close();
    for (const tamper of [
      undefined,
      (doc: LooseJson, ints: Int32Array) => {
        const [start, length] = doc.files[0].terms;
        ints[start + length - 2] = 1 << 30; // an example id far past the vocabulary
      },
      (doc: LooseJson, ints: Int32Array) => {
        ints[doc.files[1].terms[0]] = -7; // a count that no array of terms has
      },
      (doc: LooseJson) => {
        // A term listed twice: the vocabulary does not take the list as it is, terms are mapped.
        doc.index.terms.push(doc.index.terms[0]);
      },
    ]) {
      if (tamper) await editStored(prebuilt, tamper);
      // A new, empty vocabulary, as in a fresh process (one past a bound of 0 words).
      sharedVocabulary().read("reset");
      sharedVocabulary(0);
      expect(sharedVocabulary().terms).toEqual([]);
      const shelf = await createShelf(options);
      expect(messages.map((m) => shelf.match(m))).toEqual(expected);
      await shelf.close();
    }
  });
});

it("knows the core version it belongs to (a prebuilt shelf of another version is not used)", async () => {
  const manifest = JSON.parse(await fs.readFile(new URL("../../package.json", import.meta.url), "utf8"));
  expect(coreVersion()).toBe(manifest.version);
});

async function listing(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  return entries.map(String).sort();
}
