/**
 * A hand edit takes no lock, so it can land while a managed write is under way. It must
 * never vanish: either the write fails with CONFLICT and the edit stays in the file, or the
 * write replaces it and the edit is kept in history. These tests land the edit at exact
 * points of the write through the injectable file-system calls.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AtomicFs, nodeAtomicFs } from "./atomic-write.js";
import { isSkillWriteError } from "./errors.js";
import { fileWriteState } from "./file-write-state.js";
import { sha256 } from "./hash.js";
import { FAULT_SKILL, faultSkillVersion, nextFaultContent } from "./test-utils/fault-skill.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { createSkillStore } from "./writer.js";

const HAND_EDIT = faultSkillVersion(0).replace("# Iteration 0", "# Iteration 0 (edited by hand)");

let folder: SkillFolder;
beforeEach(async () => {
  folder = await makeSkillFolder();
  await folder.add(FAULT_SKILL, faultSkillVersion(0));
});
afterEach(() => folder.cleanup());

/** Runs `edit` once, when the write reaches `point` for the skill file (not for history entries). */
function editAt(point: "temp-file" | "rename", edit: () => Promise<void>): AtomicFs {
  const file = folder.fileOf(FAULT_SKILL);
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    await edit();
  };
  return {
    ...nodeAtomicFs,
    async open(path, flags, mode) {
      if (point === "temp-file" && flags === "wx" && basename(path).startsWith(`.${basename(file)}.`)) {
        await once();
      }
      return nodeAtomicFs.open(path, flags, mode);
    },
    async rename(from, to) {
      if (point === "rename" && to === file) await once();
      return nodeAtomicFs.rename(from, to);
    },
  };
}

async function everyKeptText(store: ReturnType<typeof createSkillStore>): Promise<string[]> {
  const versions = await store.versions(FAULT_SKILL);
  return Promise.all(versions.map((v) => store.read(FAULT_SKILL, v.id)));
}

describe("a hand edit during a managed write", () => {
  it("after the compare-and-swap, before the file is replaced: CONFLICT, and the edit stays", async () => {
    const file = folder.fileOf(FAULT_SKILL);
    const store = createSkillStore({
      source: folder.source,
      stateDir: folder.stateDir,
      fs: editAt("temp-file", () => writeFile(file, HAND_EDIT)),
    });
    const error = await store
      .write(FAULT_SKILL, nextFaultContent(faultSkillVersion(0)), {
        expectedHash: sha256(faultSkillVersion(0)),
      })
      .catch((e: unknown) => e);
    expect(isSkillWriteError(error, "CONFLICT")).toBe(true);
    expect((error as Error).message).toMatch(/changed \(by hand\?\) while it was being written/);
    expect(await readFile(file, "utf8")).toBe(HAND_EDIT);
    expect(await store.read(FAULT_SKILL, "~1")).toBe(faultSkillVersion(0));
  });

  it("an edit that replaces the file by rename in that window: CONFLICT too", async () => {
    const file = folder.fileOf(FAULT_SKILL);
    const store = createSkillStore({
      source: folder.source,
      stateDir: folder.stateDir,
      fs: editAt("temp-file", async () => {
        const scratch = join(dirname(file), "editor-save.tmp");
        await writeFile(scratch, HAND_EDIT);
        await rename(scratch, file);
      }),
    });
    const error = await store
      .write(FAULT_SKILL, nextFaultContent(faultSkillVersion(0)), {
        expectedHash: sha256(faultSkillVersion(0)),
      })
      .catch((e: unknown) => e);
    expect(isSkillWriteError(error, "CONFLICT")).toBe(true);
    expect(await readFile(file, "utf8")).toBe(HAND_EDIT);
  });

  it("written into the file right before the rename: the write wins, the edit is kept in history", async () => {
    const file = folder.fileOf(FAULT_SKILL);
    const store = createSkillStore({
      source: folder.source,
      stateDir: folder.stateDir,
      fs: editAt("rename", () => writeFile(file, HAND_EDIT)),
    });
    const content = nextFaultContent(faultSkillVersion(0));
    const result = await store.write(FAULT_SKILL, content, { expectedHash: sha256(faultSkillVersion(0)) });
    expect(await readFile(file, "utf8")).toBe(result.content);
    expect(result.replacedEdit?.hash).toBe(sha256(HAND_EDIT));
    expect(result.notes.join("\n")).toMatch(/edited while this write was under way/);

    // On record in order: the original, the hand edit, the write that replaced it.
    expect(await everyKeptText(store)).toEqual([result.content, HAND_EDIT, faultSkillVersion(0)]);
    const { records } = await store.ledger.read({ skill: FAULT_SKILL });
    expect(records.map((r) => [r.type, r.before, r.after])).toEqual([
      ["external-edit", sha256(faultSkillVersion(0)), sha256(HAND_EDIT)],
      ["write", sha256(HAND_EDIT), result.hash],
    ]);
    // No helper file is left beside the skill.
    const { readdir } = await import("node:fs/promises");
    expect((await readdir(dirname(file))).sort()).toEqual(["SKILL.md"]);
  });
});

describe("an editor holding the file open across a managed write", () => {
  /**
   * The fd stays on the replaced file (the old inode): what it writes after the rename is
   * only visible through the copy the write keeps aside. `landWhile` picks the bookkeeping
   * step the in-place write lands during, after the writer's first look at that copy.
   */
  async function editThroughOpenFd(landWhile: "history" | "ledger") {
    const file = folder.fileOf(FAULT_SKILL);
    const content = nextFaultContent(faultSkillVersion(0));
    const edited = Buffer.from(HAND_EDIT);
    const fd = openSync(file, "r+");
    let landed = false;
    const land = () => {
      if (landed) return;
      landed = true;
      writeSync(fd, edited, 0, edited.length, 0);
    };
    const files = fileWriteState(folder.stateDir, undefined);
    const state: typeof files = {
      ...files,
      writeSkill: (name, task) =>
        files.writeSkill(name, (scope) =>
          task({
            ...scope,
            history: {
              ...scope.history,
              add: async (skill, bytes, addOptions) => {
                if (landWhile === "history" && sha256(bytes) !== sha256(faultSkillVersion(0))) land();
                return scope.history.add(skill, bytes, addOptions);
              },
            },
            ledger: {
              ...scope.ledger,
              append: async (record) => {
                if (landWhile === "ledger" && record.type === "write") land();
                return scope.ledger.append(record);
              },
            },
          }),
        ),
    };
    const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, state });
    try {
      const result = await store.write(FAULT_SKILL, content, { expectedHash: sha256(faultSkillVersion(0)) });
      expect(landed).toBe(true);
      return { store, result, file };
    } finally {
      closeSync(fd);
    }
  }

  for (const landWhile of ["history", "ledger"] as const) {
    it(`an in-place write through it while the ${landWhile} is updated is kept in history`, async () => {
      const { store, result, file } = await editThroughOpenFd(landWhile);
      expect(await readFile(file, "utf8")).toBe(result.content);
      const texts = await everyKeptText(store);
      expect(texts).toContain(HAND_EDIT);
      // The current content is still the newest entry: the next write's compare-and-swap and
      // a shared store's head agree with the file.
      expect(texts[0]).toBe(result.content);
      expect(result.notes.join("\n")).toMatch(/edited while this write was under way/);
      const { records } = await store.ledger.read({ skill: FAULT_SKILL });
      expect(records.some((r) => r.type === "external-edit" && r.after === sha256(HAND_EDIT))).toBe(true);
      expect((await readdir(dirname(file))).sort()).toEqual(["SKILL.md"]);
    });
  }
});

describe("a hand edit while a copy behind a shared store is brought up to date", () => {
  it("lands after it was read, before that rename: CONFLICT, and the edit stays in the file", async () => {
    const other = await makeSkillFolder();
    try {
      await other.add(FAULT_SKILL, faultSkillVersion(0));
      // One versions folder for both copies; its newest entry is the head, as in a shared store.
      const files = fileWriteState(join(folder.root, "shared-state"), undefined);
      const state: typeof files = {
        ...files,
        writeSkill: (name, task) =>
          files.writeSkill(name, (scope) =>
            task({ ...scope, head: async () => (await files.history.list(name))[0]?.hash }),
          ),
      };
      const ahead = createSkillStore({ source: other.source, stateDir: other.stateDir, state });
      const original = sha256(faultSkillVersion(0));
      await ahead.write(FAULT_SKILL, nextFaultContent(faultSkillVersion(0)), { expectedHash: original });

      const file = folder.fileOf(FAULT_SKILL);
      const behind = createSkillStore({
        source: folder.source,
        stateDir: folder.stateDir,
        state,
        fs: editAt("temp-file", () => writeFile(file, HAND_EDIT)),
      });
      const error = await behind
        .write(FAULT_SKILL, nextFaultContent(faultSkillVersion(0)), { expectedHash: original })
        .catch((e: unknown) => e);
      expect(isSkillWriteError(error, "CONFLICT")).toBe(true);
      expect(await readFile(file, "utf8")).toBe(HAND_EDIT);
    } finally {
      await other.cleanup();
    }
  });
});
