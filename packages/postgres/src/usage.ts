/**
 * Usage in the `usage` table, behind core's synchronous UsageStore: reads come from a copy
 * in memory (a catalog asks for usage inside a turn and must not wait on the network);
 * uses are applied to that copy at once and sent as increments, `count = count + n`, so two
 * instances counting the same skill never lose one another's uses. `sync()` sends what is
 * pending and takes in the other instances' counts.
 *
 * The store names what changed since a version (`changedSince`), so the catalog re-orders only
 * those skills: a use here names its skill, and a re-read names the rows that differ from the
 * copy it replaces (another instance's uses); a row gone from the table is no known change.
 *
 * A batch that fails to send stays pending and goes out with the next one. What a killed
 * process had not yet sent (uses of the last few milliseconds) is lost; nothing is counted twice
 * unless a connection drops after the database committed a batch but before it answered.
 */
import { type UsageRecord, type UsageStore, withUse } from "@skillshelf/core";
import { applyUsageChanges, type UsageChange, usageChangeLog } from "@skillshelf/core/store";
import type pg from "pg";
import { storableText } from "./storable-text.js";

type Pending = UsageChange;

export interface PostgresUsageStore extends UsageStore {
  /** Resolves once every use recorded so far is in the database (or its send failed and was reported). */
  flush(): Promise<void>;
  /** Flush, then re-read every count (at most once per `pullInterval` unless `force`). */
  sync(force?: boolean): Promise<void>;
}

export interface PostgresUsageOptions {
  /** Least time between two re-reads of the table by `sync()` (ms, default 1 000). */
  pullInterval?: number;
  onError: (error: Error) => void;
}

interface UsageRow {
  skill: string;
  count: string;
  last_used: Date | null;
  first_seen: Date | null;
}

export function createPostgresUsageStore(
  pool: pg.Pool,
  q: string,
  options: PostgresUsageOptions,
): PostgresUsageStore {
  let records = new Map<string, UsageRecord>();
  let pending = new Map<string, Pending>();
  let version = 0;
  const changes = usageChangeLog();
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;
  let lastPull = Number.NEGATIVE_INFINITY;
  const pullInterval = options.pullInterval ?? 1_000;

  const mergePending = (into: Map<string, Pending>, from: Map<string, Pending>) => {
    for (const [name, change] of from) {
      const had = into.get(name) ?? { uses: 0 };
      into.set(name, {
        uses: had.uses + change.uses,
        lastUsed: later(had.lastUsed, change.lastUsed),
        firstSeen: earlier(had.firstSeen, change.firstSeen),
      });
    }
  };

  const send = async () => {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    if (batch.size === 0) return;
    // Sorted, so two instances updating the same rows lock them in the same order.
    const names = [...batch.keys()].sort();
    const changes = names.map((n) => batch.get(n)!);
    try {
      await pool.query(
        `INSERT INTO ${q}.usage AS u (skill, count, last_used, first_seen)
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::timestamptz[])
         ON CONFLICT (skill) DO UPDATE SET
           count = u.count + EXCLUDED.count,
           last_used = GREATEST(u.last_used, EXCLUDED.last_used),
           first_seen = LEAST(u.first_seen, EXCLUDED.first_seen)`,
        [
          names,
          changes.map((c) => c.uses),
          changes.map((c) => c.lastUsed ?? null),
          changes.map((c) => c.firstSeen ?? c.lastUsed ?? null),
        ],
      );
    } catch (error) {
      const unsent = new Map(batch);
      mergePending(unsent, pending);
      pending = unsent;
      options.onError(
        new Error(`skillshelf: could not send usage (kept for the next send): ${(error as Error).message}`),
      );
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    chain = chain.then(send);
  };

  const pull = async () => {
    const { rows } = await pool.query<UsageRow>(`SELECT skill, count, last_used, first_seen FROM ${q}.usage`);
    const next = new Map<string, UsageRecord>();
    for (const row of rows) {
      const record: UsageRecord = { count: Number(row.count) };
      if (row.last_used) record.lastUsed = row.last_used.toISOString();
      if (row.first_seen) record.firstSeen = row.first_seen.toISOString();
      next.set(row.skill, record);
    }
    // Uses not sent yet still count here.
    applyUsageChanges(next, pending);
    const differ: string[] = [];
    for (const [name, record] of next) if (!sameRecord(records.get(name), record)) differ.push(name);
    const removed = [...records.keys()].some((name) => !next.has(name));
    records = next;
    lastPull = Date.now();
    if (removed) {
      version++;
      changes.reset(version);
    } else if (differ.length > 0) {
      version++;
      changes.note(version, differ);
    }
  };

  const flush = () => {
    schedule();
    return chain;
  };

  return {
    version: () => version,
    changedSince: (since) => changes.since(since),
    get: (name) => {
      const record = records.get(name);
      return record && { ...record };
    },
    all: () => Object.fromEntries([...records].map(([k, v]) => [k, { ...v }])),
    record(name, at = new Date()) {
      const iso = at.toISOString();
      records.set(name, withUse(records.get(name), at));
      version++;
      changes.note(version, [name]);
      // Sent under a name the database can store: one it cannot would fail every later send.
      const key = storableText(name);
      const change = pending.get(key) ?? { uses: 0 };
      change.uses++;
      change.lastUsed = later(change.lastUsed, iso);
      pending.set(key, change);
      schedule();
    },
    seen(names, at = new Date()) {
      const iso = at.toISOString();
      const added: string[] = [];
      for (const name of names) {
        if (records.has(name)) continue;
        records.set(name, { count: 0, firstSeen: iso });
        const key = storableText(name);
        const change = pending.get(key) ?? { uses: 0 };
        change.firstSeen = earlier(change.firstSeen, iso);
        pending.set(key, change);
        added.push(name);
      }
      if (added.length > 0) {
        version++;
        changes.note(version, added);
        schedule();
      }
    },
    flush,
    async sync(force = false) {
      await flush();
      if (force || Date.now() - lastPull >= pullInterval) {
        await pull().catch((error: Error) =>
          options.onError(new Error(`skillshelf: could not read usage: ${error.message}`)),
        );
      }
    },
  };
}

function sameRecord(a: UsageRecord | undefined, b: UsageRecord): boolean {
  return a !== undefined && a.count === b.count && a.lastUsed === b.lastUsed && a.firstSeen === b.firstSeen;
}

function later(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a > b ? a : b;
}

function earlier(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}
