import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createShelf } from "../shelf.js";
import { createFileUsageStore, USAGE_FILE } from "./file-store.js";
import { createMemoryUsageStore, recency } from "./store.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-usage-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const t1 = new Date("2026-03-01T10:00:00.000Z");
const t2 = new Date("2026-03-02T10:00:00.000Z");

describe("file usage store", () => {
  it("persists records and reads them back in a new store", () => {
    const store = createFileUsageStore({ dir });
    store.record("a", t1);
    store.record("a", t2);
    store.seen(["a", "b"], t1);
    store.flush();
    const again = createFileUsageStore({ dir });
    expect(again.get("a")).toEqual({ count: 2, lastUsed: t2.toISOString(), firstSeen: t1.toISOString() });
    expect(again.get("b")).toEqual({ count: 0, firstSeen: t1.toISOString() });
    expect(Object.keys(again.all())).toEqual(["a", "b"]);
  });

  it("writes atomically: no temp file is left and the file is always whole JSON", () => {
    const store = createFileUsageStore({ dir, writeDelay: 0 });
    for (let i = 0; i < 20; i++) {
      store.record(`skill-${i}`, t1);
      const text = fs.readFileSync(path.join(dir, USAGE_FILE), "utf8");
      expect(() => JSON.parse(text)).not.toThrow();
    }
    // Nothing but the data and the state folder's .gitignore: no temp file, no lock left.
    expect(fs.readdirSync(dir).sort()).toEqual([".gitignore", USAGE_FILE]);
  });

  it("creates the state folder when missing", () => {
    const nested = path.join(dir, "deep", ".skillshelf");
    const store = createFileUsageStore({ dir: nested });
    store.record("a", t1);
    store.flush();
    expect(fs.existsSync(path.join(nested, USAGE_FILE))).toBe(true);
  });

  it("merges with another process's writes instead of overwriting them", () => {
    const one = createFileUsageStore({ dir });
    const two = createFileUsageStore({ dir });
    one.record("a", t1);
    one.flush();
    two.record("a", t2);
    two.record("b", t2);
    two.flush();
    const fresh = createFileUsageStore({ dir });
    expect(fresh.get("a")?.count).toBe(2);
    expect(fresh.get("a")?.lastUsed).toBe(t2.toISOString());
    expect(fresh.get("b")?.count).toBe(1);
  });

  it("moves a corrupt file aside, reports it, and starts afresh", () => {
    const file = path.join(dir, USAGE_FILE);
    fs.writeFileSync(file, '{"version":1,"skills":{"a":{"count":3');
    const errors: Error[] = [];
    const store = createFileUsageStore({ dir, onError: (e) => errors.push(e) });
    expect(store.all()).toEqual({});
    expect(errors[0]?.message).toMatch(/moved it to .*usage\.json\.corrupt-/);
    const aside = fs.readdirSync(dir).find((f) => f.startsWith(`${USAGE_FILE}.corrupt-`));
    expect(aside && fs.readFileSync(path.join(dir, aside), "utf8")).toBe(
      '{"version":1,"skills":{"a":{"count":3',
    );
    store.record("a", t1);
    store.flush();
    expect(createFileUsageStore({ dir }).get("a")?.count).toBe(1);
  });

  it("treats a JSON file of the wrong shape as corrupt, and drops only bad entries of a good one", () => {
    fs.writeFileSync(path.join(dir, USAGE_FILE), "[1,2,3]");
    expect(createFileUsageStore({ dir, onError: () => {} }).all()).toEqual({});
    fs.writeFileSync(
      path.join(dir, USAGE_FILE),
      JSON.stringify({
        version: 1,
        skills: {
          ok: { count: 2, lastUsed: t1.toISOString() },
          bad: "x",
          odd: { count: "9", lastUsed: "never" },
        },
      }),
    );
    expect(createFileUsageStore({ dir }).all()).toEqual({
      ok: { count: 2, lastUsed: t1.toISOString() },
      odd: { count: 0 },
    });
  });

  it("seen() only marks new names and does not write when nothing changed", () => {
    const store = createFileUsageStore({ dir });
    store.seen(["a"], t1);
    store.flush();
    const file = path.join(dir, USAGE_FILE);
    fs.utimesSync(file, new Date(0), new Date(0));
    store.seen(["a"], t2);
    store.flush();
    expect(fs.statSync(file).mtimeMs).toBe(0);
    expect(store.get("a")?.firstSeen).toBe(t1.toISOString());
  });

  it("keeps working in memory when the folder cannot be written", () => {
    const blocker = path.join(dir, "file-not-dir");
    fs.writeFileSync(blocker, "x");
    const errors: Error[] = [];
    const store = createFileUsageStore({ dir: blocker, onError: (e) => errors.push(e) });
    store.record("a", t1);
    store.flush();
    expect(store.get("a")?.count).toBe(1);
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe("file usage store: delayed writes", () => {
  it("keeps a use off the disk during the call and writes the uses of the delay together", async () => {
    const store = createFileUsageStore({ dir, writeDelay: 20 });
    store.record("a", t1);
    store.record("b", t2);
    store.record("a", t2);
    // In memory at once (the catalog's order sees it), on disk not yet.
    expect(store.get("a")?.count).toBe(2);
    expect(fs.existsSync(path.join(dir, USAGE_FILE))).toBe(false);
    // Waited for, not timed: vi.waitFor gives up after 1 s by default, and a loaded machine can
    // hold the 20 ms delay and its write longer than that.
    await vi.waitFor(() => expect(fs.existsSync(path.join(dir, USAGE_FILE))).toBe(true), { timeout: 15_000 });
    const fresh = createFileUsageStore({ dir });
    expect(fresh.get("a")).toMatchObject({ count: 2, lastUsed: t2.toISOString() });
    expect(fresh.get("b")?.count).toBe(1);
  });

  it("flush() writes what is pending at once, and reload() keeps the uses not written yet", () => {
    const store = createFileUsageStore({ dir });
    const other = createFileUsageStore({ dir, writeDelay: 0 });
    store.record("a", t1);
    other.record("a", t2);
    store.reload();
    expect(store.get("a")?.count).toBe(2);
    store.flush();
    expect(createFileUsageStore({ dir }).get("a")?.count).toBe(2);
  });

  it("names the records changed since a version, until a write brings in the file's (then it cannot tell)", () => {
    const store = createFileUsageStore({ dir });
    const start = store.version!();
    store.record("a", t1);
    store.seen(["a", "b", "c"], t1);
    expect([...(store.changedSince!(start) ?? [])].sort()).toEqual(["a", "b", "c"]);
    const afterMark = store.version!();
    store.record("b", t2);
    expect(store.changedSince!(afterMark)).toEqual(["b"]);
    store.flush();
    expect(store.changedSince!(afterMark)).toBeUndefined();
    expect(store.changedSince!(store.version!())).toEqual([]);
  });

  it("a shelf writes the uses still pending when it closes", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-usage-shelf-"));
    try {
      const skillDir = path.join(root, ".skillshelf", "skills", "pdf-report");
      fs.mkdirSync(skillDir, { recursive: true });
      fs.writeFileSync(
        path.join(skillDir, "SKILL.md"),
        "---\nname: pdf-report\ndescription: Make a PDF report.\n---\n\nBody.\n",
      );
      const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
      shelf.session({ tools: ["read_file"] }).activate("pdf-report", { by: "code" });
      expect(fs.existsSync(path.join(root, ".skillshelf", USAGE_FILE))).toBe(false);
      await shelf.close();
      const saved = JSON.parse(fs.readFileSync(path.join(root, ".skillshelf", USAGE_FILE), "utf8"));
      expect(saved.skills["pdf-report"].count).toBe(1);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("memory usage store and recency", () => {
  it("records uses and first-seen times", () => {
    const store = createMemoryUsageStore();
    store.seen(["new"], t1);
    store.record("used", t2);
    expect(store.get("new")).toEqual({ count: 0, firstSeen: t1.toISOString() });
    expect(store.get("used")).toEqual({ count: 1, lastUsed: t2.toISOString(), firstSeen: t2.toISOString() });
  });

  it("recency: last use, else first seen, else now (a skill never seen is new)", () => {
    const now = Date.parse("2026-04-01T00:00:00.000Z");
    expect(recency(undefined, now)).toBe(now);
    expect(recency({ count: 0, firstSeen: t1.toISOString() }, now)).toBe(t1.getTime());
    expect(recency({ count: 1, lastUsed: t2.toISOString(), firstSeen: t1.toISOString() }, now)).toBe(
      t2.getTime(),
    );
  });
});
