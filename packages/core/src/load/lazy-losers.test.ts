/**
 * After a cold load the files that lost are not reported until something asks: each name's
 * overridden entries and notes, and the sorted diagnostics, are made by the first
 * `overridden()` or `diagnostics()` (or by whatever is about to change what they are made
 * from). What they say, and in which order, is what an eager load says — before and after a
 * refresh, from a scan and from a prebuilt shelf.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf, type ShelfOptions } from "../shelf.js";
import type { Diagnostic } from "../types.js";
import { SkillLoader } from "./loader.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { type ResolveEntry, resolveSkills, resolveWinners } from "./resolve.js";
import { resolveSources } from "./sources.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const plain = (items: readonly unknown[]) => JSON.parse(JSON.stringify(items));
const withoutPrebuiltNotes = (diagnostics: readonly Diagnostic[]) =>
  plain(diagnostics.filter((d) => !d.code.startsWith("prebuilt-")));

/**
 * Three copies of `report` (two in the first project folder, one in the second), `helper` as
 * two roles and an ordinary skill, one skill with a parse warning, one of its own.
 */
async function contestedProject() {
  const root = await tempDir("skillshelf-lazy-losers-");
  const first = path.join(root, ".skillshelf/skills");
  const second = path.join(root, ".agents/skills");
  const report = await writeSkill(first, "a-report", skillText("report", "The first copy."));
  const secondReport = await writeSkill(first, "b-report", skillText("report", "The second copy."));
  const thirdReport = await writeSkill(second, "report", skillText("report", "The third copy."));
  await writeSkill(first, "helper", skillText("helper", "The role.", "role: true\n"));
  await writeSkill(second, "helper", skillText("helper", "Another role.", "role: true\n"));
  await writeSkill(first, "cat/helper", skillText("helper", "An ordinary skill."));
  await writeSkill(first, "odd", skillText("odd", "Has an unknown field.", "colour: blue\n"));
  await writeSkill(first, "alone", skillText("alone"));
  const sources = resolveSources({ root, userDirs: [] });
  return { root, first, second, report, secondReport, thirdReport, sources };
}

/** What a load exposes, asked for in full right after it (the order the notes come in included). */
async function eagerState(root: string) {
  const loader = new SkillLoader({ sources: resolveSources({ root, userDirs: [] }) });
  await loader.load();
  return {
    skills: loader.skills().map((s) => s.file),
    overridden: plain(loader.overridden()),
    diagnostics: plain(loader.diagnostics()),
  };
}

describe("resolveWinners", () => {
  it("serves resolveSkills' winners and makes its overridden files and notes, once, when asked", () => {
    const skill = (name: string, scope: "project" | "user", file: string, role = false) =>
      ({ name, description: "d", scope, file, dir: path.dirname(file), locked: false, role }) as never;
    const entries: ResolveEntry[] = [
      { skill: skill("a", "user", "/u/a/SKILL.md"), rank: 2, depth: 1 },
      { skill: skill("a", "project", "/p/a/SKILL.md"), rank: 0, depth: 1 },
      { skill: skill("b", "project", "/p/b/SKILL.md", true), rank: 0, depth: 1 },
      { skill: skill("b", "project", "/p/x/b/SKILL.md", true), rank: 0, depth: 2 },
      { skill: skill("b", "project", "/p/y/b/SKILL.md"), rank: 0, depth: 2 },
      { skill: skill("c", "project", "/p/c/SKILL.md"), rank: 0, depth: 1 },
    ];
    const prefer = new Map([["a", "/nowhere/a"]]);
    const eager = resolveSkills(entries, { prefer });
    const winners = resolveWinners(entries, { prefer });
    expect(winners.skills).toEqual(eager.skills);
    expect([...winners.contested]).toEqual(["a", "b"]);
    expect(winners.losers.map((e) => e.skill.file)).toEqual([
      "/u/a/SKILL.md",
      "/p/x/b/SKILL.md",
      "/p/y/b/SKILL.md",
    ]);
    // A loser that is a stub by the time the notes are made reads as the file it stands for:
    // the role that lost to a role is still a duplicate, not an ordinary skill shadowed.
    const role = winners.losers[1] as ResolveEntry;
    role.skill = { ...role.skill, role: false };
    const details = winners.details();
    expect(details).toBe(winners.details());
    expect(plain(details.overridden)).toEqual(plain(eager.overridden));
    expect(plain(details.diagnostics)).toEqual(plain(eager.diagnostics));
    expect(details.overridden.map((o) => o.reason)).toEqual(["shadowed", "duplicate-name", "role-shadowed"]);
  });
});

describe("a cold load's losers, reported when first asked", () => {
  it("say what an eager load says, in its order, and the first load's report is every diagnostic", async () => {
    const { root, sources } = await contestedProject();
    const expected = await eagerState(root);
    expect(expected.overridden.map((o: { reason: string }) => o.reason).sort()).toEqual([
      "duplicate-name",
      "duplicate-name",
      "duplicate-name",
      "role-shadowed",
    ]);

    const loader = new SkillLoader({ sources });
    const change = await loader.load();
    expect(loader.skills().map((s) => s.file)).toEqual(expected.skills);
    // Asked first for the report, then for the lists: the same either way.
    expect(plain(change.diagnostics)).toEqual(expected.diagnostics);
    expect(plain(loader.diagnostics())).toEqual(expected.diagnostics);
    expect(plain(loader.overridden())).toEqual(expected.overridden);
    expect(loader.diagnostics()).toBe(loader.diagnostics());
  });

  it("a refresh before anything asked: the loser that now wins, the edited loser and the new copy, as a new load says", async () => {
    const { root, first, report, secondReport, sources } = await contestedProject();
    const loader = new SkillLoader({ sources });
    await loader.load();
    // Nothing asked yet: the winner goes, the next copy wins; a loser is edited; a new copy comes.
    await fs.rm(path.dirname(report), { recursive: true });
    await fs.appendFile(path.join(root, ".agents/skills/report/SKILL.md"), "\nEdited.\n");
    await writeSkill(first, "z-alone", skillText("alone", "A second alone."));
    const change = await loader.refresh();
    expect(change.updated).toEqual(["report"]);
    expect(loader.get("report")?.file).toBe(secondReport);
    expect(loader.get("report")?.description).toBe("The second copy.");
    const expected = await eagerState(root);
    expect(plain(loader.overridden())).toEqual(expected.overridden);
    expect(plain(loader.diagnostics())).toEqual(expected.diagnostics);
    // What the refresh reported: the files it read and whatever is new.
    const reported = plain(change.diagnostics).map((d: Diagnostic) => [d.code, path.relative(root, d.file)]);
    expect(reported).toContainEqual(["duplicate-name", ".skillshelf/skills/z-alone/SKILL.md"]);
    expect(reported).toContainEqual(["duplicate-name", ".agents/skills/report/SKILL.md"]);
    expect(reported).not.toContainEqual(["duplicate-name", ".skillshelf/skills/cat/helper/SKILL.md"]);
  });

  it("from a prebuilt shelf: the same before and after the winner's file is made invalid or removed", async () => {
    const { root, report, secondReport, thirdReport } = await contestedProject();
    await buildPrebuiltShelf({ root, userDirs: [], builtinRoles: false });
    const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
    const scanned = await createShelf({ ...options, prebuilt: false });
    const shelf = await createShelf(options);
    expect(shelf.diagnostics().filter((d) => d.code.startsWith("prebuilt-"))).toEqual([]);
    expect(shelf.skills().map((s) => s.file)).toEqual(scanned.skills().map((s) => s.file));
    expect(plain(shelf.diagnostics())).toEqual(plain(scanned.diagnostics()));
    await scanned.close();

    // A new start from the same (now stale) prebuilt shelf, asked nothing before the refresh.
    const again = await createShelf(options);
    await fs.writeFile(report, "---\nname: [unclosed\n---\n");
    await fs.rm(path.dirname(secondReport), { recursive: true });
    await again.refresh({ full: true });
    // The prebuilt winner keeps no last good version: the one copy left wins, read from its file.
    expect(again.get("report")?.file).toBe(thirdReport);
    expect(again.get("report")?.description).toBe("The third copy.");
    const rescanned = await createShelf({ ...options, prebuilt: false });
    expect(withoutPrebuiltNotes(again.diagnostics())).toEqual(withoutPrebuiltNotes(rescanned.diagnostics()));
    await rescanned.close();
    await again.close();
    await shelf.close();
  });

  it("a role that lost to a role stays a duplicate after it is set aside: on a refresh and from a prebuilt shelf", async () => {
    const { root } = await contestedProject();
    await buildPrebuiltShelf({ root, userDirs: [], builtinRoles: false });
    const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
    const codesOf = (diagnostics: readonly Diagnostic[]) =>
      diagnostics
        .filter((d) => d.file.includes("helper"))
        .map((d) => `${d.code} ${path.relative(root, d.file)}`);
    const expected = [
      "duplicate-name .agents/skills/helper/SKILL.md",
      "role-shadowed .skillshelf/skills/cat/helper/SKILL.md",
    ];
    const scanned = await createShelf({ ...options, prebuilt: false });
    expect(codesOf(scanned.diagnostics())).toEqual(expected);
    const prebuilt = await createShelf(options);
    expect(codesOf(prebuilt.diagnostics())).toEqual(expected);
    // An edit to the winning role resolves the name again, with the losing role as its stub.
    await fs.appendFile(path.join(root, ".skillshelf/skills/helper/SKILL.md"), "\nEdited.\n");
    await scanned.refresh({ full: true });
    expect(codesOf(scanned.diagnostics())).toEqual(expected);
    await scanned.close();
    await prebuilt.close();
  });

  it("a prebuilt skill that no longer matches its file, before anything asked: its note comes last, as when asked first", async () => {
    const { root } = await contestedProject();
    const file = await writeSkill(
      path.join(root, ".skillshelf/skills"),
      "deploy",
      skillText("deploy", "Deploys."),
    );
    const second = 1_700_000_000; // whole seconds: utimes keeps them exactly
    await fs.utimes(file, second, second);
    await buildPrebuiltShelf({ root, userDirs: [], builtinRoles: false });
    await fs.writeFile(file, skillText("deploy", "DEPLOYS."));
    await fs.utimes(file, second, second);
    const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };

    const askedFirst = await createShelf(options);
    askedFirst.diagnostics();
    expect(askedFirst.get("deploy")?.description).toBe("DEPLOYS.");
    const askedLater = await createShelf(options);
    expect(askedLater.get("deploy")?.description).toBe("DEPLOYS.");
    const list = plain(askedLater.diagnostics());
    expect(list).toEqual(plain(askedFirst.diagnostics()));
    expect(list.at(-1).code).toBe("prebuilt-mismatch");
    await askedFirst.close();
    await askedLater.close();
  });
});
