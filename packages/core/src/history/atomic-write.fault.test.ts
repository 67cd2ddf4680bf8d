/**
 * Fault test 3: a file-system call that fails (injected) at each step of an atomic write
 * and of a managed write. Before the rename, the original must be untouched, no temp file
 * may remain, the lock must be released and nothing recorded; after it, the write stands.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AtomicFileHandle, type AtomicFs, atomicWrite, nodeAtomicFs } from "./atomic-write.js";
import { sha256 } from "./hash.js";
import { lockPathFor } from "./lock.js";
import { corpusSkill } from "./test-utils/corpus.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { createSkillStore } from "./writer.js";

type Step = "open" | "writeFile" | "sync" | "close" | "rename";

/** node's calls, except that `step` fails (EIO) for paths `where` accepts. Counts what it failed. */
function failingFs(step: Step, where: (path: string) => boolean) {
  const injected = { count: 0 };
  const fail = (path: string) => {
    injected.count++;
    return Object.assign(new Error(`injected ${step} failure on ${basename(path)}`), { code: "EIO" });
  };
  const wrapHandle = (handle: AtomicFileHandle, path: string): AtomicFileHandle => ({
    writeFile: (data) =>
      step === "writeFile" && where(path) ? Promise.reject(fail(path)) : handle.writeFile(data),
    sync: () => (step === "sync" && where(path) ? Promise.reject(fail(path)) : handle.sync()),
    close: async () => {
      await handle.close(); // really close it: the failure must not leak a descriptor
      if (step === "close" && where(path)) throw fail(path);
    },
  });
  const fs: AtomicFs = {
    ...nodeAtomicFs,
    async open(path, flags, mode) {
      if (step === "open" && where(path)) throw fail(path);
      return wrapHandle(await nodeAtomicFs.open(path, flags, mode), path);
    },
    rename: (from, to) =>
      step === "rename" && where(to) ? Promise.reject(fail(to)) : nodeAtomicFs.rename(from, to),
  };
  return { fs, injected };
}

const STEPS: Step[] = ["open", "writeFile", "sync", "close", "rename"];
/** Temp files are written to `.<target>.<pid>.<random>.tmp`; the folder fsync opens the folder itself. */
const isTempOf = (target: string) => (path: string) => basename(path).startsWith(`.${basename(target)}.`);

describe("atomicWrite with a failing call", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillshelf-atomic-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it.each(STEPS)("%s fails: the original is untouched and no temp file remains", async (step) => {
    const target = join(dir, "SKILL.md");
    await writeFile(target, "original");
    const { fs, injected } = failingFs(step, step === "rename" ? (p) => p === target : isTempOf(target));
    await expect(atomicWrite(target, "replacement", { fs })).rejects.toThrow(`injected ${step} failure`);
    expect(injected.count).toBe(1);
    expect(await readFile(target, "utf8")).toBe("original");
    expect(readdirSync(dir)).toEqual(["SKILL.md"]);
  });

  it.each(STEPS)("%s fails on a new file: no file and no temp file appear", async (step) => {
    const target = join(dir, "new.md");
    const { fs } = failingFs(step, step === "rename" ? (p) => p === target : isTempOf(target));
    await expect(atomicWrite(target, "content", { fs })).rejects.toThrow("injected");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a folder that cannot be fsynced is reported, not thrown: the rename happened", async () => {
    const target = join(dir, "SKILL.md");
    const { fs } = failingFs("sync", (p) => p === dir);
    expect(await atomicWrite(target, "content", { fs })).toEqual({ dirSynced: false });
    expect(await readFile(target, "utf8")).toBe("content");
  });

  it("keeps the permission bits of the file it replaces", async () => {
    const target = join(dir, "run.sh");
    await writeFile(target, "old", { mode: 0o750 });
    await atomicWrite(target, "new");
    expect((await import("node:fs")).statSync(target).mode & 0o777).toBe(0o750);
  });
});

describeWithSharedData("managed write with a failing call", () => {
  const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");
  const NEW = COMMS.replace("- Incident reports\n", "- Incident reports\n- Release notes\n");
  let folder: SkillFolder;
  let file: string;
  beforeEach(async () => {
    folder = await makeSkillFolder();
    file = await folder.add("internal-comms", COMMS);
  });
  afterEach(() => folder.cleanup());

  const tempsIn = (dir: string) =>
    existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".tmp")) : [];

  it.each(STEPS)(
    "%s of the skill file fails: original untouched, nothing recorded, lock released",
    async (step) => {
      const { fs, injected } = failingFs(step, step === "rename" ? (p) => p === file : isTempOf(file));
      const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, fs });
      await expect(store.write("internal-comms", NEW, { expectedHash: sha256(COMMS) })).rejects.toThrow(
        `injected ${step}`,
      );
      expect(injected.count).toBe(1);

      expect(readFileSync(file, "utf8")).toBe(COMMS);
      expect(tempsIn(folder.fileOf("internal-comms").replace("/SKILL.md", ""))).toEqual([]);
      expect(existsSync(lockPathFor(file))).toBe(false);
      expect((await store.ledger.read()).records).toEqual([]);
      // The version that was about to be replaced may already be kept; the new one is not.
      const kept = await store.versions("internal-comms");
      expect(kept.map((v) => v.hash)).toEqual([sha256(COMMS)]);

      // And the next write, with working calls, succeeds.
      const healthy = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
      expect((await healthy.write("internal-comms", NEW, { expectedHash: sha256(COMMS) })).changed).toBe(
        true,
      );
    },
  );

  it.each(STEPS)("%s fails while keeping the old version: the skill file is never touched", async (step) => {
    const historyDir = join(folder.stateDir, "history", "internal-comms");
    const { fs, injected } = failingFs(step, (p) => p.startsWith(historyDir) && p !== historyDir);
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, fs });
    await expect(store.write("internal-comms", NEW, { expectedHash: sha256(COMMS) })).rejects.toThrow(
      `injected ${step}`,
    );
    expect(injected.count).toBe(1);
    expect(readFileSync(file, "utf8")).toBe(COMMS);
    expect(tempsIn(historyDir)).toEqual([]);
    expect(readdirSync(historyDir)).toEqual([]);
    expect(existsSync(lockPathFor(file))).toBe(false);
  });

  it("a failure after the rename does not pretend the write failed; the next write records it", async () => {
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
    const first = await store.write("internal-comms", NEW, { expectedHash: sha256(COMMS) });

    const historyDir = join(folder.stateDir, "history", "internal-comms");
    const second = NEW.replace("- Release notes\n", "- Release notes\n- Postmortems\n");
    // Only the second history write (recording the new version) fails.
    let historyWrites = 0;
    const { fs } = failingFs("rename", (p) => p.startsWith(historyDir) && ++historyWrites === 1);
    const flaky = createSkillStore({ source: folder.source, stateDir: folder.stateDir, fs });
    const result = await flaky.write("internal-comms", second, { expectedHash: first.hash });
    expect(result.changed).toBe(true);
    expect(result.versionId).toBe("current");
    expect(result.notes.join()).toMatch(/not yet kept in history/);
    expect(readFileSync(file, "utf8")).toBe(result.content);

    expect((await store.versions("internal-comms"))[0]).toMatchObject({ id: "current", recorded: false });
    expect(await store.recordExternalChange("internal-comms")).toMatchObject({ recorded: true });
    expect((await store.versions("internal-comms")).map((v) => v.version)).toEqual([
      "0.0.2",
      "0.0.1",
      undefined,
    ]);
  });
});
