/**
 * Two separate app processes, each with its own copy of the skills, on one database: they
 * share usage order, proposals, history and the ledger; writing the same skill at the same
 * moment, exactly one wins and the other gets CONFLICT, round after round, with nothing
 * lost; and an instance killed mid-write leaves nothing half-written.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createShelf, parseSkill, recency, sha256, type UsageRecord } from "@skillshelf/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresStore, type PostgresStore } from "../src/index.js";
import { databaseUrl, freshSchema, makeProject, proposalFor, tempDir } from "./fixtures/project.js";
import { type AppInstance, spawnInstance } from "./fixtures/spawn-instance.js";

const ROUNDS = Number(process.env.SKILLSHELF_PG_ROUNDS ?? 100);
const KILLS = Number(process.env.SKILLSHELF_PG_KILLS ?? 8);

describe.skipIf(!databaseUrl)("two app instances on one PostgreSQL database", () => {
  const url = databaseUrl!;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let schema: string;
  let a: AppInstance;
  let b: AppInstance;
  let store: PostgresStore;
  beforeAll(async () => {
    temp = await tempDir();
    schema = freshSchema();
    store = await createPostgresStore({ connectionString: url, schema });
    [a, b] = await Promise.all([
      spawnInstance(await makeProject(temp.dir, "a"), url, schema),
      spawnInstance(await makeProject(temp.dir, "b"), url, schema),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await store?.close();
    await temp?.cleanup();
  });

  it("share usage counts and so the usage order", async () => {
    await Promise.all([
      a.send({ op: "use", skill: "db-migrations", times: 150 }),
      b.send({ op: "use", skill: "db-migrations", times: 150 }),
    ]);
    await b.send({ op: "use", skill: "incident-review", times: 1 });
    const [fromA, fromB] = await Promise.all([
      a.send<{ usage: Record<string, UsageRecord> }>({ op: "usage" }),
      b.send<{ usage: Record<string, UsageRecord> }>({ op: "usage" }),
    ]);
    expect(fromA.usage["db-migrations"]?.count).toBe(300);
    expect(fromA.usage).toEqual(fromB.usage);
    // The catalog orders by recency: the last use (in B) comes first in A as well.
    const now = Date.now();
    const order = (usage: Record<string, UsageRecord>) =>
      ["db-migrations", "incident-review"].sort((x, y) => recency(usage[y], now) - recency(usage[x], now));
    expect(order(fromA.usage)).toEqual(["incident-review", "db-migrations"]);
    expect(order(fromB.usage)).toEqual(order(fromA.usage));
  });

  it("share proposals: one made on A is accepted on B, and A sees the decision and the new version", async () => {
    const hash = (await a.send<{ hash: string }>({ op: "hash", skill: "release-notes" })).hash;
    const proposal = proposalFor("release-notes", hash);
    await store.proposals.save(proposal);
    const listed = await a.send<{ proposals: Array<{ id: string; status: string }> }>({ op: "proposals" });
    expect(listed.proposals.map((p) => p.id)).toContain(proposal.id);
    const [onA, onB] = await Promise.all([
      a.send<{ ok: boolean }>({ op: "accept", id: proposal.id }),
      b.send<{ ok: boolean }>({ op: "accept", id: proposal.id }),
    ]);
    expect([onA.ok, onB.ok].filter(Boolean)).toHaveLength(1);
    const after = await a.send<{ proposals: Array<{ id: string; status: string }> }>({ op: "proposals" });
    expect(after.proposals.find((p) => p.id === proposal.id)?.status).toBe("accepted");
    const versions = await b.send<{ versions: Array<{ source: string }> }>({
      op: "history",
      skill: "release-notes",
    });
    expect(versions.versions.map((v) => v.source)).toContain("accepted");
    expect((await store.ledger.read({ skill: "release-notes", types: ["accepted"] })).records).toHaveLength(
      1,
    );
  });

  it(`writing one skill at once: exactly one wins, the other gets CONFLICT, nothing lost (${ROUNDS} rounds)`, async () => {
    const skill = "incident-review";
    const winners: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const startAt = Date.now() + 30;
      const results = await Promise.all(
        [a, b].map((instance, i) =>
          instance.send<{ ok: boolean; hash?: string; code?: string; before: string }>({
            op: "race",
            skill,
            tag: `round ${round} by ${i === 0 ? "a" : "b"}`,
            startAt,
          }),
        ),
      );
      const won = results.filter((r) => r.ok);
      const lost = results.filter((r) => !r.ok);
      expect(won, `round ${round}: ${JSON.stringify(results)}`).toHaveLength(1);
      expect(lost.map((r) => r.code)).toEqual(["CONFLICT"]);
      winners.push(won[0]!.hash!);
    }
    // Every winner is on record, in order: each write replaced the one before it.
    const writes = (await store.ledger.read({ skill, types: ["write"] })).records;
    expect(writes.map((w) => w.after)).toEqual(winners);
    for (let i = 1; i < writes.length; i++) expect(writes[i]!.before).toBe(writes[i - 1]!.after);
    const kept = await store.history.list(skill);
    expect(new Set(kept.map((v) => v.hash))).toEqual(new Set([writes[0]!.before!, ...winners]));
    // The losers' copies were brought up to date: both instances now serve the last winner.
    const hashes = await Promise.all([a, b].map((i) => i.send<{ hash: string }>({ op: "hash", skill })));
    expect(hashes.map((h) => h.hash)).toEqual([winners.at(-1), winners.at(-1)]);
    // Each round's loser started from the previous winner: its line is in no version.
    const newest = (await store.history.read(skill, kept[0]!.id)).toString("utf8");
    expect(newest.match(/- round \d+ by [ab]/g)).toHaveLength(ROUNDS);
  });

  // Eight app processes started one after another, each transforming its TypeScript as it
  // starts: 75 s at load ~15 with every package's tests running, close to the file's 180 s.
  it("an instance killed mid-write leaves nothing half-written", async () => {
    const skill = "release-notes";
    const root = join(temp.dir, "a");
    const file = join(root, ".skillshelf", "skills", skill, "SKILL.md");
    const admin = new pg.Pool({ connectionString: url });
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const victim = await spawnInstance(root, url, schema);
        victim.child.stdin!.write(`${JSON.stringify({ op: "loop", skill })}\n`);
        const acknowledged: string[] = [];
        // Let it write a few times, then kill it somewhere inside a write.
        const target = 2 + (kill % 4);
        while (acknowledged.length < target) {
          const line = await victim.next<{ wrote?: string }>();
          if (line.wrote) acknowledged.push(line.wrote);
        }
        await new Promise((r) => setTimeout(r, kill * 3));
        victim.child.kill("SIGKILL");
        await victim.exited;

        // The file is one complete version; a write reported done is never lost.
        const text = await readFile(file, "utf8");
        expect(parseSkill(text, { path: file }).skill?.name).toBe(skill);
        const kept = await store.history.list(skill);
        const keptHashes = new Set(kept.map((v) => v.hash));
        for (const hash of acknowledged) expect(keptHashes.has(hash)).toBe(true);
        expect(kept.every((v) => v.intact)).toBe(true);
        // Every ledger line names versions that exist: the transaction committed whole or not at all.
        const { records } = await store.ledger.read({ skill });
        for (const record of records)
          if (record.versionId) expect(kept.map((v) => v.id)).toContain(record.versionId);
        // The file is the newest kept version, or a complete newer one the killed write had not committed.
        const fileHash = sha256(text);
        if (fileHash !== kept[0]!.hash) expect(keptHashes.has(fileHash)).toBe(false);
        // The database dropped the killed connection's transaction: no hold is left behind.
        await expect
          .poll(
            async () =>
              (
                await admin.query(
                  "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND datname = current_database()",
                )
              ).rows[0].n,
            // Waited for, not timed: the server notices the dead connection when it is next
            // scheduled, which a loaded machine can put off for seconds.
            { timeout: 60_000 },
          )
          .toBe(0);
      }
      // The next instance writes at once: it finds the state whole and records what the kill left.
      const shelf = await createShelf({
        root,
        userDirs: [],
        builtinRoles: false,
        store,
        history: { keep: 1_000 },
      });
      const current = shelf.get(skill)!;
      const written = await shelf.write(
        skill,
        `${(await readFile(file, "utf8")).trimEnd()}\n- after the kills\n`,
        {
          expectedHash: current.hash,
        },
      );
      expect(written.changed).toBe(true);
      expect((await store.history.list(skill))[0]!.hash).toBe(written.hash);
      await shelf.close();
    } finally {
      await admin.end();
    }
  }, 480_000);
});
