/**
 * The state store behind createShelf: the file store keeps everything where it always was;
 * a store passed in gets all of it; and two shelves with their own copies of the skills
 * sharing one store agree on a skill's current version (compare-and-swap on the store's
 * head, a copy that is behind brought up to date).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isSkillWriteError } from "../history/errors.js";
import { createShelf } from "../shelf.js";
import { createFileStateStore } from "./file-state-store.js";
import type { StateStore } from "./state-store.js";

const SKILL = "release-notes";
const TEXT = `---\nname: ${SKILL}\ndescription: Use when the user asks for release notes.\n---\n\n# Release notes\n\n- Be brief.\n`;

let temp: string;
beforeEach(async () => {
  temp = await mkdtemp(join(tmpdir(), "skillshelf-state-store-"));
});
afterEach(async () => {
  await rm(temp, { recursive: true, force: true });
});

async function project(label: string): Promise<string> {
  const root = join(temp, label);
  await mkdir(join(root, ".skillshelf", "skills", SKILL), { recursive: true });
  await writeFile(join(root, ".skillshelf", "skills", SKILL, "SKILL.md"), TEXT);
  return root;
}

const edited = (text: string, line: string) => `${text.trimEnd()}\n- ${line}\n`;

/** A file store made to behave like a shared one: writes of a skill take turns, and the newest kept version is the head. */
function sharedFileStore(dir: string): StateStore {
  const files = createFileStateStore({ dir });
  let turn: Promise<unknown> = Promise.resolve();
  return {
    ...files,
    writeSkill(name, task) {
      const run = turn.then(() =>
        files.writeSkill(name, (scope) =>
          task({ ...scope, head: async () => (await files.history.list(name))[0]?.hash }),
        ),
      );
      turn = run.catch(() => undefined);
      return run;
    },
  };
}

describe("the file store (the default)", () => {
  it("keeps usage, events, versions and the ledger under .skillshelf, events with their ids", async () => {
    const root = await project("default");
    const shelf = await createShelf({ root, userDirs: [], builtinRoles: false });
    const session = await shelf.openSession({
      message: "please write the release notes for version 2.4",
      ids: { thread: "t-1", run: "r-1" },
    });
    session.plan();
    shelf.noteRead(shelf.get(SKILL)!.file);
    await shelf.write(SKILL, edited(TEXT, "Ask for the version."), { expectedHash: shelf.get(SKILL)!.hash });
    await shelf.close();

    const state = join(root, ".skillshelf");
    for (const file of ["usage.json", "events.jsonl", "ledger.jsonl", join("history", SKILL)])
      expect(existsSync(join(state, file)), file).toBe(true);
    const events = createFileStateStore({ dir: state }).events;
    const mine = (await events.read({ thread: "t-1" })).events;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.run === "r-1" && typeof e.session === "string")).toBe(true);
    expect((await events.read({ thread: "someone-else" })).events).toEqual([]);
  });

  it("a store passed to createShelf gets all of it", async () => {
    const root = await project("elsewhere");
    const store = createFileStateStore({ dir: join(temp, "shared-state") });
    const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, store });
    shelf.noteRead(shelf.get(SKILL)!.file);
    await shelf.write(SKILL, edited(TEXT, "Ask for the version."), { expectedHash: shelf.get(SKILL)!.hash });
    await shelf.close();
    expect(store.usage.get(SKILL)?.count).toBe(1);
    expect((await store.ledger.read()).records.map((r) => r.type)).toEqual(["write"]);
    expect(await store.history.list(SKILL)).toHaveLength(2);
    expect(existsSync(join(root, ".skillshelf", "ledger.jsonl"))).toBe(false);
    expect(existsSync(join(root, ".skillshelf", "usage.json"))).toBe(false);
  });
});

describe("two shelves, each with its own copy of the skills, on one shared store", () => {
  it("the second writer of a version gets CONFLICT, its copy is brought up to date, and its retry wins", async () => {
    const store = sharedFileStore(join(temp, "shared"));
    const a = await createShelf({ root: await project("a"), userDirs: [], store });
    const b = await createShelf({ root: await project("b"), userDirs: [], store });
    const base = a.get(SKILL)!.hash;
    expect(b.get(SKILL)!.hash).toBe(base);
    const [onA, onB] = await Promise.allSettled([
      a.write(SKILL, edited(TEXT, "from a"), { expectedHash: base }),
      b.write(SKILL, edited(TEXT, "from b"), { expectedHash: base }),
    ]);
    const won = [onA, onB].filter((r) => r.status === "fulfilled");
    const lost = [onA, onB].filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(isSkillWriteError(lost[0]?.reason, "CONFLICT")).toBe(true);

    // The loser now holds the winner's version, on disk and after a refresh.
    const winner = won[0]!.value;
    const loser = onA.status === "rejected" ? a : b;
    await loser.refresh();
    expect(loser.get(SKILL)!.hash).toBe(winner.hash);
    expect(await readFile(loser.get(SKILL)!.file, "utf8")).toBe(winner.content);
    const retry = await loser.write(SKILL, edited(winner.content, "again"), { expectedHash: winner.hash });
    expect(retry.previousHash).toBe(winner.hash);
    const writes = (await store.ledger.read({ types: ["write"] })).records;
    expect(writes.map((w) => [w.before, w.after])).toEqual([
      [base, winner.hash],
      [winner.hash, retry.hash],
    ]);
    await Promise.all([a.close(), b.close()]);
  });

  it("a hand edit of one copy is kept as an edit, never overwritten by the shared version", async () => {
    const store = sharedFileStore(join(temp, "shared-edit"));
    const a = await createShelf({ root: await project("a"), userDirs: [], store });
    const b = await createShelf({ root: await project("b"), userDirs: [], store });
    const fromA = await a.write(SKILL, edited(TEXT, "from a"), { expectedHash: a.get(SKILL)!.hash });
    const bFile = b.get(SKILL)!.file;
    await writeFile(bFile, edited(TEXT, "typed by hand in b"));
    await b.refresh();
    const handHash = b.get(SKILL)!.hash;
    const written = await b.write(SKILL, edited(await readFile(bFile, "utf8"), "then written"), {
      expectedHash: handHash,
    });
    expect(written.previousHash).toBe(handHash);
    const kept = (await store.history.list(SKILL)).map((v) => v.hash);
    expect(kept).toContain(fromA.hash);
    expect(kept).toContain(handHash);
    await Promise.all([a.close(), b.close()]);
  });
});
