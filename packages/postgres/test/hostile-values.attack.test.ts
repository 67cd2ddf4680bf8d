/**
 * Values a model or a hostile skill chooses reach the database: tool names and messages in
 * events, skill names in usage, proposal ids typed by a user. SQL metacharacters must stay
 * data, and a value PostgreSQL cannot store as text or jsonb (NUL, a lone surrogate) must
 * not cost the events sent beside it — a blocked call's record among them.
 */
import type { SkillEvent } from "@skillshelf/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresStore } from "../src/index.js";
import { databaseUrl, freshSchema } from "./fixtures/project.js";

const INJECTION = "x'); DROP TABLE usage; --";

describe.skipIf(!databaseUrl)("hostile values in the PostgreSQL store", () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseUrl });
  });
  afterAll(async () => {
    await pool?.end();
  });

  const blocked = (tool: string, session = "s1"): SkillEvent =>
    ({
      type: "tool-blocked",
      at: new Date().toISOString(),
      tool,
      reason: "TOOL_NOT_ALLOWED",
      active: ["notes-writer"],
      session,
    }) as unknown as SkillEvent;

  it("keeps every event of a batch when one carries a NUL or a lone surrogate", async () => {
    const errors: Error[] = [];
    const store = await createPostgresStore({
      connectionString: databaseUrl,
      schema: freshSchema(),
      onError: (e) => errors.push(e),
    });
    store.events.emit(blocked("send_email"));
    store.events.emit(blocked("send_email\u0000hidden"));
    store.events.emit(blocked("rm\ud800"));
    store.events.emit(blocked("after"));
    await store.flush();
    const { events } = await store.events.read({ session: "s1" });
    expect(errors).toEqual([]);
    expect(events.map((e) => (e as { tool?: string }).tool)).toEqual([
      "send_email",
      "send_email\ufffdhidden",
      "rm\ufffd",
      "after",
    ]);
    await store.close();
  });

  it("SQL metacharacters in names, ids and event fields stay data", async () => {
    const schema = freshSchema();
    const store = await createPostgresStore({ connectionString: databaseUrl, schema });
    store.usage.record(INJECTION);
    store.usage.record("100%_done");
    store.events.emit(blocked(INJECTION, INJECTION));
    await store.flush();
    const fresh = await createPostgresStore({ connectionString: databaseUrl, schema });
    expect(fresh.usage.get(INJECTION)?.count).toBe(1);
    expect(fresh.usage.get("100%_done")?.count).toBe(1);
    expect((await fresh.events.read({ session: INJECTION })).events).toHaveLength(1);
    // A LIKE pattern would match every session: it must match none.
    expect((await fresh.events.read({ session: "%" })).events).toHaveLength(0);
    await expect(fresh.proposals.load("%")).rejects.toThrow();
    const tables = await pool.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'usage'",
      [schema],
    );
    expect(tables.rows[0].n).toBe(1);
    await Promise.all([store.close(), fresh.close()]);
  });

  it("a skill name PostgreSQL cannot store does not keep every later use from being stored", async () => {
    const schema = freshSchema();
    const errors: Error[] = [];
    const store = await createPostgresStore({
      connectionString: databaseUrl,
      schema,
      onError: (e) => errors.push(e),
    });
    store.usage.record("bad\u0000name");
    await store.flush();
    store.usage.record("release-notes");
    await store.flush();
    const fresh = await createPostgresStore({ connectionString: databaseUrl, schema });
    expect(fresh.usage.get("release-notes")?.count).toBe(1);
    await Promise.all([store.close(), fresh.close()]);
  });
});
