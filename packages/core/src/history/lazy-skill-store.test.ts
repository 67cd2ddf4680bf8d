import { readFile } from "node:fs/promises";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { sha256 } from "./hash.js";
import { createSkillStore } from "./lazy-skill-store.js";
import { corpusSkill } from "./test-utils/corpus.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";

const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");

describeWithSharedData("the store the package exports (writer loaded on first call)", () => {
  let folder: SkillFolder;
  beforeEach(async () => {
    folder = await makeSkillFolder();
    await folder.add("internal-comms", COMMS);
  });
  afterEach(() => folder.cleanup());

  it("has its history and ledger before any write, and writes, lists and reads like the writer", async () => {
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
    expect(await store.history.list("internal-comms")).toEqual([]);
    const before = await readFile(folder.fileOf("internal-comms"));
    const next = before
      .toString("utf8")
      .replace("- Incident reports\n", "- Incident reports\n- Postmortems\n");
    const written = await store.write("internal-comms", next, { expectedHash: sha256(before) });
    expect(await readFile(folder.fileOf("internal-comms"), "utf8")).toContain("- Postmortems");
    const versions = await store.versions("internal-comms");
    expect(versions[0]).toMatchObject({ id: written.versionId, current: true });
    expect(await store.read("internal-comms", "current")).toContain("- Postmortems");
    expect((await store.ledger.read({ skill: "internal-comms" })).records.length).toBeGreaterThan(0);
  });

  it("fails a stale write with CONFLICT, as the writer does", async () => {
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
    await expect(
      store.write("internal-comms", COMMS, { expectedHash: "0".repeat(64) }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});
