import { lstatSync, readdirSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { SkillEvent } from "../types.js";
import { SkillWriteError } from "./errors.js";
import { sha256 } from "./hash.js";
import { corpusSkill } from "./test-utils/corpus.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { createSkillStore, type SkillStore } from "./writer.js";

const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");
const DEBUGGING = corpusSkill("obra--superpowers/skills/systematic-debugging/SKILL.md");

let folder: SkillFolder;
let store: SkillStore;
let events: SkillEvent[];

beforeEach(async () => {
  folder = await makeSkillFolder();
  events = [];
  store = createSkillStore({
    source: folder.source,
    stateDir: folder.stateDir,
    events: { emit: (e) => events.push(e) },
  });
  await folder.add("internal-comms", COMMS);
});
afterEach(() => folder.cleanup());

const current = async (name = "internal-comms") => readFile(folder.fileOf(name), "utf8");
const hashOf = async (name = "internal-comms") => sha256(await readFile(folder.fileOf(name)));
/** A small, real-looking edit: one more line in the "When to use" list. */
const edited = (text: string, line: string) =>
  text.replace("- Incident reports\n", `- Incident reports\n- ${line}\n`);

async function expectWriteError(
  promise: Promise<unknown>,
  code: SkillWriteError["code"],
): Promise<SkillWriteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillWriteError);
  expect((error as SkillWriteError).code).toBe(code);
  return error as SkillWriteError;
}

describeWithSharedData("write", () => {
  it("writes, bumps the version, keeps the old version and records the decision", async () => {
    const before = await hashOf();
    const result = await store.write("internal-comms", edited(COMMS, "Release notes"), {
      expectedHash: before,
    });

    expect(result).toMatchObject({
      changed: true,
      previousHash: before,
      version: "0.0.1",
      previousVersion: undefined,
    });
    expect(await current()).toBe(result.content);
    expect(result.content).toBe(
      edited(COMMS, "Release notes").replace("LICENSE.txt\n---", "LICENSE.txt\nversion: 0.0.1\n---"),
    );
    expect(result.hash).toBe(await hashOf());

    const versions = await store.versions("internal-comms");
    expect(versions.map((v) => [v.version, v.current, v.source])).toEqual([
      ["0.0.1", true, "write"],
      [undefined, false, "initial"],
    ]);
    expect(await store.read("internal-comms", "~1")).toBe(COMMS);

    const { records } = await store.ledger.read({ skill: "internal-comms" });
    expect(records).toMatchObject([
      { type: "write", before, after: result.hash, version: "0.0.1", versionId: result.versionId },
    ]);
    expect(events).toMatchObject([
      { type: "skill-written", skill: "internal-comms", before, after: result.hash, version: "0.0.1" },
    ]);
  });

  it("bumps the patch on every write and keeps a version the author raised on purpose", async () => {
    let hash = await hashOf();
    for (const line of ["A", "B"])
      hash = (await store.write("internal-comms", edited(await current(), line), { expectedHash: hash }))
        .hash;
    expect((await store.versions("internal-comms"))[0]!.version).toBe("0.0.2");

    const major = (await current()).replace("version: 0.0.2", "version: 1.0.0");
    const result = await store.write("internal-comms", major, { expectedHash: hash });
    expect(result.version).toBe("1.0.0");
    const next = await store.write("internal-comms", edited(await current(), "C"), {
      expectedHash: result.hash,
    });
    expect(next.version).toBe("1.0.1");
  });

  it("refuses a stale writer with CONFLICT and changes nothing", async () => {
    const stale = await hashOf();
    await store.write("internal-comms", edited(COMMS, "First"), { expectedHash: stale });
    const snapshot = { file: await current(), versions: await store.versions("internal-comms") };

    const error = await expectWriteError(
      store.write("internal-comms", edited(COMMS, "Second"), { expectedHash: stale }),
      "CONFLICT",
    );
    expect(error.details).toMatchObject({ expectedHash: stale, actualHash: await hashOf() });
    expect(error.message).toMatch(/re-read it/);
    expect(await current()).toBe(snapshot.file);
    expect(await store.versions("internal-comms")).toEqual(snapshot.versions);
    expect((await store.ledger.read()).records).toHaveLength(1);
  });

  it("lets exactly one of two same-process writers with the same expected hash win", async () => {
    const expectedHash = await hashOf();
    const results = await Promise.allSettled([
      store.write("internal-comms", edited(COMMS, "One"), { expectedHash }),
      store.write("internal-comms", edited(COMMS, "Two"), { expectedHash }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((loser.reason as SkillWriteError).code).toBe("CONFLICT");
  });

  it("refuses content that does not parse, with the parser's located reason", async () => {
    const broken = COMMS.replace(/^description: .*\n/m, "");
    const error = await expectWriteError(
      store.write("internal-comms", broken, { expectedHash: await hashOf() }),
      "INVALID",
    );
    expect(error.message).toMatch(/line \d+: .*description/i);
    expect(await current()).toBe(COMMS);
    expect(readdirSync(folder.stateDir)).not.toContain("history");
  });

  it("refuses a rename", async () => {
    const renamed = COMMS.replace("name: internal-comms", "name: comms");
    await expectWriteError(
      store.write("internal-comms", renamed, { expectedHash: await hashOf() }),
      "NAME_CHANGED",
    );
    expect(await current()).toBe(COMMS);
  });

  it("refuses builtins (code) and unknown names", async () => {
    folder.builtins.set("researcher", {
      name: "researcher",
      description: "A role.",
      scope: "builtin",
      file: "builtin:researcher",
      locked: false,
    } as never);
    const builtin = await expectWriteError(
      store.write("researcher", "---\nname: researcher\ndescription: x\n---\n", { expectedHash: "" }),
      "NOT_WRITABLE",
    );
    expect(builtin.message).toMatch(/defined in code.*\.skillshelf\/skills\/researcher\/SKILL\.md/);
    await expectWriteError(store.write("nope", COMMS, { expectedHash: "" }), "NOT_FOUND");
  });

  it("writes through a SKILL.md that is a link, keeping the link", async () => {
    const real = `${folder.root}/shared-skill.md`;
    await writeFile(real, DEBUGGING);
    await mkdir(`${folder.skillsDir}/systematic-debugging`, { recursive: true });
    await symlink(real, folder.fileOf("systematic-debugging"));
    const result = await store.write(
      "systematic-debugging",
      DEBUGGING.replace("## The Iron Law", "## The Iron Law!"),
      {
        expectedHash: sha256(DEBUGGING),
      },
    );
    expect(lstatSync(folder.fileOf("systematic-debugging")).isSymbolicLink()).toBe(true);
    expect(await readFile(real, "utf8")).toBe(result.content);
  });

  it("writes nothing when the content is unchanged", async () => {
    const result = await store.write("internal-comms", COMMS, { expectedHash: await hashOf() });
    expect(result.changed).toBe(false);
    expect(await current()).toBe(COMMS);
    expect(events).toEqual([]);
  });

  it("keeps the last `keep` versions besides the current one", async () => {
    store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, keep: 3 });
    let hash = await hashOf();
    for (let i = 1; i <= 6; i++)
      hash = (
        await store.write("internal-comms", edited(await current(), `Item ${i}`), { expectedHash: hash })
      ).hash;
    const versions = await store.versions("internal-comms");
    expect(versions.map((v) => v.version)).toEqual(["0.0.6", "0.0.5", "0.0.4", "0.0.3"]);
    expect(readdirSync(join(folder.stateDir, "history", "internal-comms"))).toHaveLength(4);
  });

  it("orders versions correctly even when the clock does not move", async () => {
    const now = Date.now();
    const spy = vi.spyOn(Date, "now").mockReturnValue(now);
    try {
      let hash = await hashOf();
      for (const line of ["A", "B", "C"])
        hash = (await store.write("internal-comms", edited(await current(), line), { expectedHash: hash }))
          .hash;
    } finally {
      spy.mockRestore();
    }
    const versions = await store.versions("internal-comms");
    expect(versions.map((v) => v.version)).toEqual(["0.0.3", "0.0.2", "0.0.1", undefined]);
    expect(new Set(versions.map((v) => v.at)).size).toBe(4);
  });
});

describeWithSharedData("versions, read, diff", () => {
  let ids: string[];
  beforeEach(async () => {
    let hash = await hashOf();
    for (const line of ["A", "B"])
      hash = (await store.write("internal-comms", edited(await current(), line), { expectedHash: hash }))
        .hash;
    ids = (await store.versions("internal-comms")).map((v) => v.id);
  });

  it("resolves every kind of reference", async () => {
    const [latest, middle, initial] = ids as [string, string, string];
    expect(await store.read("internal-comms")).toBe(await current());
    expect(await store.read("internal-comms", "current")).toBe(await current());
    expect(await store.read("internal-comms", initial)).toBe(COMMS);
    expect(await store.read("internal-comms", "~2")).toBe(COMMS);
    expect((await store.resolve("internal-comms", middle.slice(0, -3))).id).toBe(middle);
    expect((await store.resolve("internal-comms", "0.0.1")).id).toBe(middle);
    expect((await store.resolve("internal-comms", "v0.0.2")).id).toBe(latest);
    expect((await store.resolve("internal-comms", sha256(COMMS).slice(0, 6))).id).toBe(initial);
  });

  it("explains a reference that matches nothing or too much", async () => {
    const missing = await expectWriteError(store.resolve("internal-comms", "~5"), "NOT_FOUND");
    expect(missing.message).toMatch(/only 2 earlier version/);
    const unknown = await expectWriteError(store.resolve("internal-comms", "9.9.9"), "NOT_FOUND");
    expect(unknown.message).toContain(ids[0]);
    await expectWriteError(store.resolve("internal-comms", ids[0]!.slice(0, 4)), "AMBIGUOUS");
  });

  it("diffs two versions as a unified diff, the current one by default", async () => {
    const patch = await store.diff("internal-comms", "~2");
    expect(patch).toContain(`--- internal-comms@${ids[2]}`);
    expect(patch).toContain(`+++ internal-comms@${ids[0]} (current)`);
    expect(patch).toContain("+- B\n+- A\n");
    expect(patch).toContain("+version: 0.0.2\n");
    expect(await store.diff("internal-comms", "current", "current")).not.toContain("@@");
  });

  it("flags a kept copy that was altered on disk", async () => {
    const path = `${join(folder.stateDir, "history", "internal-comms")}/${ids[1]}.md`;
    await writeFile(path, "tampered");
    expect((await store.versions("internal-comms")).map((v) => v.intact)).toEqual([true, false, true]);
  });
});

describeWithSharedData("rollback", () => {
  it("restores a kept version as a new managed write, which can itself be rolled back", async () => {
    const first = await store.write("internal-comms", edited(COMMS, "Good"), {
      expectedHash: await hashOf(),
    });
    const bad = await store.write("internal-comms", edited(first.content, "Bad"), {
      expectedHash: first.hash,
    });

    const back = await store.rollback("internal-comms", first.versionId);
    expect(back.version).toBe("0.0.3");
    expect(back.content).toBe(first.content.replace("version: 0.0.1", "version: 0.0.3"));
    expect(await current()).toBe(back.content);

    const again = await store.rollback("internal-comms", bad.versionId);
    expect(again.content).toBe(bad.content.replace("version: 0.0.2", "version: 0.0.4"));

    const { records } = await store.ledger.read({ types: ["rollback"] });
    expect(records.map((r) => r.to)).toEqual([first.versionId, bad.versionId]);
    expect((await store.versions("internal-comms")).map((v) => v.source)).toEqual([
      "rollback",
      "rollback",
      "write",
      "write",
      "initial",
    ]);
  });

  it("refuses a stale rollback", async () => {
    const stale = await hashOf();
    const first = await store.write("internal-comms", edited(COMMS, "Good"), { expectedHash: stale });
    await expectWriteError(store.rollback("internal-comms", "~1", { expectedHash: stale }), "CONFLICT");
    expect(await current()).toBe(first.content);
  });
});

describeWithSharedData("hand edits", () => {
  it("refresh records a hand edit of a managed skill; the version before it is still there", async () => {
    const managed = await store.write("internal-comms", edited(COMMS, "Managed"), {
      expectedHash: await hashOf(),
    });
    const byHand = managed.content.replace("## How to use this skill", "## How to use it");
    await writeFile(folder.fileOf("internal-comms"), byHand);

    expect((await store.versions("internal-comms"))[0]).toMatchObject({
      id: "current",
      recorded: false,
      source: "external-edit",
    });
    expect(await store.recordExternalChange("internal-comms", sha256(byHand))).toMatchObject({
      recorded: true,
    });
    expect(await store.recordExternalChange("internal-comms", sha256(byHand))).toEqual({ recorded: false });

    const versions = await store.versions("internal-comms");
    expect(versions.map((v) => [v.current, v.source])).toEqual([
      [true, "external-edit"],
      [false, "write"],
      [false, "initial"],
    ]);
    expect(await store.read("internal-comms", "~1")).toBe(managed.content);
    const { records } = await store.ledger.read({ types: ["external-edit"] });
    expect(records).toMatchObject([{ before: managed.hash, after: sha256(byHand) }]);
  });

  it("a write after an unnoticed hand edit keeps the hand-edited version too", async () => {
    const managed = await store.write("internal-comms", edited(COMMS, "Managed"), {
      expectedHash: await hashOf(),
    });
    const byHand = managed.content.replace("## How to use this skill", "## How to use it");
    await writeFile(folder.fileOf("internal-comms"), byHand);

    await store.write("internal-comms", edited(byHand, "After"), { expectedHash: sha256(byHand) });
    expect(await store.read("internal-comms", "~1")).toBe(byHand);
    expect(await store.read("internal-comms", "~2")).toBe(managed.content);
    expect((await store.ledger.read()).records.map((r) => r.type)).toEqual([
      "write",
      "external-edit",
      "write",
    ]);
  });

  it("ignores skills that were never written through skillshelf", async () => {
    await folder.add("systematic-debugging", DEBUGGING);
    expect(await store.recordExternalChange("systematic-debugging")).toEqual({ recorded: false });
    expect(await store.versions("systematic-debugging")).toMatchObject([
      { id: "current", recorded: false, source: undefined },
    ]);
  });
});
