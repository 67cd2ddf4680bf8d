/**
 * The PostgreSQL store in one process: migrations, usage increments, events by id,
 * proposals, and managed writes through a shelf.
 */
import { randomUUID } from "node:crypto";
import { createShelf, SkillWriteError } from "@skillshelf/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresStore, MIGRATIONS, migrate } from "../src/index.js";
import { databaseUrl, freshSchema, makeProject, proposalFor, tempDir } from "./fixtures/project.js";

describe.skipIf(!databaseUrl)("PostgreSQL store", () => {
  let pool: pg.Pool;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl });
    temp = await tempDir();
  });
  afterAll(async () => {
    await pool?.end();
    await temp?.cleanup();
  });

  it("migrates once, in a transaction, and again does nothing", async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([migrate(pool, schema), migrate(pool, schema)]);
    expect([...a.applied, ...b.applied]).toEqual(MIGRATIONS.map((m) => m.version));
    expect((await migrate(pool, schema)).applied).toEqual([]);
    const broken = [
      ...MIGRATIONS,
      { version: 999, name: "broken", up: "CREATE TABLE $schema.x (); SELECT nope" },
    ];
    await expect(migrate(pool, schema, broken)).rejects.toThrow();
    const tables = await pool.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'x'",
      [schema],
    );
    expect(tables.rows[0].n).toBe(0);
  });

  it("refuses a schema name it would have to escape", async () => {
    await expect(createPostgresStore({ pool, schema: 'x"; DROP TABLE y; --' })).rejects.toThrow(
      /schema name/,
    );
  });

  it("counts every use from concurrent stores", async () => {
    const schema = freshSchema();
    const stores = await Promise.all(
      [1, 2, 3].map(() => createPostgresStore({ connectionString: databaseUrl, schema })),
    );
    await Promise.all(
      stores.map(async (store) => {
        for (let i = 0; i < 200; i++) {
          store.usage.record("shared");
          if (i % 17 === 0) await new Promise((r) => setImmediate(r));
        }
        await store.flush();
      }),
    );
    await stores[0]!.usage.sync(true);
    expect(stores[0]!.usage.get("shared")?.count).toBe(600);
    await Promise.all(stores.map((s) => s.close()));
  });

  it("names the usage records that changed since a version: its own uses, then what a re-read brought in", async () => {
    const schema = freshSchema();
    const a = await createPostgresStore({ connectionString: databaseUrl, schema });
    const b = await createPostgresStore({ connectionString: databaseUrl, schema });
    const usage = a.usage;
    const start = usage.version!();
    usage.record("alpha");
    usage.seen(["alpha", "gamma"]);
    expect([...(usage.changedSince!(start) ?? [])].sort()).toEqual(["alpha", "gamma"]);
    await usage.flush();

    // Another instance's uses arrive with the next re-read: only the rows that differ are named.
    b.usage.record("beta");
    b.usage.record("alpha");
    await b.usage.flush();
    const beforePull = usage.version!();
    await usage.sync(true);
    expect([...(usage.changedSince!(beforePull) ?? [])].sort()).toEqual(["alpha", "beta"]);
    expect(usage.get("alpha")?.count).toBe(2);

    // A re-read that finds nothing new changes nothing.
    const settled = usage.version!();
    await usage.sync(true);
    expect(usage.version!()).toBe(settled);
    expect(usage.changedSince!(settled)).toEqual([]);

    // A record taken away (the table cleared by hand) is no known change: readers re-read everything.
    await pool.query(`DELETE FROM "${schema}".usage WHERE skill = 'gamma'`);
    const beforeDelete = usage.version!();
    await usage.sync(true);
    expect(usage.get("gamma")).toBeUndefined();
    expect(usage.changedSince!(beforeDelete)).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it("keeps session, thread and run ids with each event and reads one conversation back", async () => {
    const schema = freshSchema();
    const store = await createPostgresStore({ connectionString: databaseUrl, schema });
    const root = await makeProject(temp.dir, `events-${schema}`);
    const shelf = await createShelf({ root, userDirs: [], store });
    const thread = randomUUID();
    for (const run of ["run-1", "run-2"]) {
      const session = await shelf.openSession({
        message: "please write the release notes for version 2.4 today",
        ids: { thread, run },
      });
      session.plan();
    }
    const other = await shelf.openSession({
      message: "please write the release notes for version 2.4 today",
      ids: { thread: "other" },
    });
    other.plan();
    await shelf.close();
    const mine = await store.events.read({ thread });
    expect(mine.events.length).toBeGreaterThan(0);
    expect(new Set(mine.events.map((e) => e.run))).toEqual(new Set(["run-1", "run-2"]));
    expect(mine.events.every((e) => typeof e.session === "string")).toBe(true);
    expect((await store.events.read({ thread, run: "run-2" })).events.every((e) => e.run === "run-2")).toBe(
      true,
    );
    const candidates = mine.events.find((e) => e.type === "candidates");
    expect(candidates && "message" in candidates ? candidates.message : "").not.toBe(
      "please write the release notes for version 2.4 today",
    );
    await store.close();
  });

  it("lets one of two concurrent accepts of a proposal win", async () => {
    const schema = freshSchema();
    const store = await createPostgresStore({ connectionString: databaseUrl, schema });
    const root = await makeProject(temp.dir, `proposals-${schema}`);
    const shelf = await createShelf({ root, userDirs: [], store });
    const skill = shelf.get("release-notes")!;
    const proposal = proposalFor(skill.name, skill.hash);
    await store.proposals.save(proposal);
    const results = await Promise.allSettled([
      shelf.improvements.accept(proposal.id),
      shelf.improvements.accept(proposal.id),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await store.proposals.load(proposal.id.slice(0, 12))).status).toBe("accepted");
    expect((await store.ledger.read({ types: ["accepted"] })).records).toHaveLength(1);
    // A prefix is never a LIKE pattern.
    await expect(store.proposals.load("%")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await shelf.close();
    await store.close();
  });

  it("a write against a moved hash is CONFLICT and leaves no row behind", async () => {
    const schema = freshSchema();
    const store = await createPostgresStore({ connectionString: databaseUrl, schema });
    const root = await makeProject(temp.dir, `conflict-${schema}`);
    const shelf = await createShelf({ root, userDirs: [], store });
    const error = await shelf
      .write("release-notes", "---\nname: release-notes\ndescription: x\n---\nbody\n", {
        expectedHash: "0".repeat(64),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillWriteError);
    expect((error as SkillWriteError).code).toBe("CONFLICT");
    expect(await store.history.list("release-notes")).toEqual([]);
    expect((await store.ledger.read()).records).toEqual([]);
    await shelf.close();
    await store.close();
  });
});
