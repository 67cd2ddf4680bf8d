/**
 * A trusted project skill changed by someone else (a pull, a teammate's push) keeps loading
 * unless the change widens what it can do. Two ways to widen were not counted: a workflow
 * step that runs something new (`run: tool:<name>` or a host function, run by core without
 * the model choosing), and dropping or widening the `paths:` gate (the skill is then offered
 * in conversations it never was, as a new trigger would make it).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import { trustSkillFolders } from "./trust-folders.js";
import { defaultTrustFile } from "./trust-store.js";

const RELEASE = (frontmatter = 'paths: ["CHANGELOG.md"]\n') => `---
name: release
description: Prepare the release notes and tag.
allowed-tools: bash read_file
${frontmatter}---
Write the release notes from the changelog.
`;
const STEPS = `steps:
  - { id: notes, title: Write the notes, output: notes }
  - { id: tag, title: Tag it, input: [notes], output: tagged, run: "tool:bash" }
`;

let base: string;
let repo: string;
let trustFile: string;
let skillDir: string;
let shelf: Shelf | undefined;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillshelf-trust-widening-"));
  repo = path.join(base, "repo");
  trustFile = defaultTrustFile(path.join(base, "home"));
  skillDir = path.join(repo, ".agents", "skills", "release");
  await mkdir(skillDir, { recursive: true });
});
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(base, { recursive: true, force: true });
});

async function trustedThenEdited(before: string, after: string) {
  await writeFile(path.join(skillDir, "SKILL.md"), before);
  await trustSkillFolders(skillDir, { file: trustFile });
  shelf = await createShelf({ root: repo, userDirs: [], events: false, trust: { file: trustFile } });
  expect(shelf.trustOf("release")?.status).toBe("trusted");
  await writeFile(path.join(skillDir, "SKILL.md"), after);
  await shelf.refresh({ full: true });
  return shelf.trustOf("release");
}

describe("a trusted skill's edit that widens what it does needs a new trust", () => {
  it("a workflow step that runs a tool", async () => {
    const state = await trustedThenEdited(RELEASE(), RELEASE(`paths: ["CHANGELOG.md"]\n${STEPS}`));
    expect(state?.status).toBe("needs-retrust");
    expect(state?.changes.join("; ")).toContain("tool:bash");
  });

  it("the paths: gate dropped or widened", async () => {
    expect((await trustedThenEdited(RELEASE(), RELEASE("")))?.status).toBe("needs-retrust");
    await shelf?.close();
    shelf = undefined;
    const wider = await trustedThenEdited(RELEASE(), RELEASE('paths: ["CHANGELOG.md", "**"]\n'));
    expect(wider?.status).toBe("needs-retrust");
    expect(wider?.changes.join("; ")).toContain("**");
  });

  it("narrowing the gate or editing the body does not", async () => {
    expect(
      (await trustedThenEdited(RELEASE('paths: ["CHANGELOG.md", "docs/*.md"]\n'), RELEASE()))?.status,
    ).toBe("changed");
    await shelf?.close();
    shelf = undefined;
    const body = RELEASE().replace("from the changelog.", "from the changelog, newest first.");
    expect((await trustedThenEdited(RELEASE(), body))?.status).toBe("changed");
  });
});

describe("a record written before the gate and step runs were recorded", () => {
  // Trust files from before this version hold no `paths` or `stepRuns`. Read as "none", they
  // would let a gated skill drop its gate unseen; read as "unknown", a changed skill is judged
  // as if it had had a gate and no step runs, so it needs one new trust at most.
  async function asOlderRecord() {
    const trust = JSON.parse(await readFile(trustFile, "utf8"));
    for (const record of Object.values(trust.folders) as Array<{ policy: Record<string, unknown> }>) {
      delete record.policy.paths;
      delete record.policy.stepRuns;
    }
    await writeFile(trustFile, JSON.stringify(trust));
  }

  async function olderThenEdited(before: string, after: string) {
    await writeFile(path.join(skillDir, "SKILL.md"), before);
    await trustSkillFolders(skillDir, { file: trustFile });
    await asOlderRecord();
    shelf = await createShelf({ root: repo, userDirs: [], events: false, trust: { file: trustFile } });
    expect(shelf.trustOf("release")?.status).toBe("trusted");
    await writeFile(path.join(skillDir, "SKILL.md"), after);
    await shelf.refresh({ full: true });
    return shelf.trustOf("release");
  }

  it("a gate dropped after such a record needs a new trust", async () => {
    const state = await olderThenEdited(RELEASE(), RELEASE(""));
    expect(state?.status).toBe("needs-retrust");
    expect(state?.changes.join("; ")).toContain("paths");
  });

  it("a gated skill edited in its body alone stays trusted", async () => {
    const body = RELEASE().replace("from the changelog.", "from the changelog, newest first.");
    expect((await olderThenEdited(RELEASE(), body))?.status).toBe("changed");
  });

  it("a record written now says the skill had no gate, so a skill without one stays trusted", async () => {
    const plain = RELEASE("");
    await writeFile(path.join(skillDir, "SKILL.md"), plain);
    await trustSkillFolders(skillDir, { file: trustFile });
    const trust = JSON.parse(await readFile(trustFile, "utf8"));
    const policy = (Object.values(trust.folders)[0] as { policy: Record<string, unknown> }).policy;
    expect(policy.paths).toBeNull();
    expect(policy.stepRuns).toEqual([]);
    shelf = await createShelf({ root: repo, userDirs: [], events: false, trust: { file: trustFile } });
    await writeFile(path.join(skillDir, "SKILL.md"), plain.replace("changelog.", "changelog, newest first."));
    await shelf.refresh({ full: true });
    expect(shelf.trustOf("release")?.status).toBe("changed");
  });
});
