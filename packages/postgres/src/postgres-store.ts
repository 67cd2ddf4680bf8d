/**
 * createPostgresStore: skillshelf's state on PostgreSQL, shared by every instance of an app
 * that points at the same database and schema. Pass it to `createShelf({ store })`.
 *
 * A managed write of a skill runs in one transaction holding that skill's row
 * (`SELECT … FOR UPDATE`): the compare-and-swap on the skill's current content hash, the
 * versions it keeps and its ledger lines commit together or not at all, and a second
 * instance writing the same skill waits for the first, then finds the hash moved (CONFLICT).
 */
import {
  SkillWriteError,
  type SkillWriteScope,
  type StateStore,
  type WorkflowRunStore,
} from "@skillshelf/core";
import pg from "pg";
import { createPostgresEventStore } from "./events.js";
import { ledgerOn } from "./ledger.js";
import { migrate } from "./migrations.js";
import { createPostgresProposalStore } from "./proposals.js";
import { inTransaction, quoteSchema, sqlState } from "./sql.js";
import { createPostgresUsageStore, type PostgresUsageStore } from "./usage.js";
import { versionsOn } from "./versions.js";
import { createPostgresRunStore } from "./workflows.js";

export interface PostgresStoreOptions {
  /** A connection string (`postgres://user:pass@host:5432/db`); or pass `pool`. */
  connectionString?: string;
  /** A pool you own (it is not ended by `close()`). Needs room for two connections: an accept holds its proposal while it writes the skill. */
  pool?: pg.Pool;
  /** Schema holding skillshelf's tables (default `skillshelf`); created by the migrations. */
  schema?: string;
  /** Run pending schema migrations on start (default true). With false, the schema must be current already. */
  migrate?: boolean;
  /** How long a managed write waits for another instance's write of the same skill (ms, default 10 000): then LOCKED. */
  lockWait?: number;
  /** Least time between two re-reads of the usage counts by `sync()` (ms, default 1 000). */
  usagePullInterval?: number;
  /** How user text is stored in events (default `"prefix"`, as the file log). */
  eventText?: "prefix" | "hash" | "full";
  /** Told about failed background sends (events, usage); default: one process warning for the first. */
  onError?: (error: Error) => void;
}

export interface PostgresStore extends StateStore {
  readonly kind: "postgres";
  readonly usage: PostgresUsageStore;
  readonly pool: pg.Pool;
  readonly schema: string;
  /** Workflow runs' checkpoints (`workflow_runs`) and logs (`workflow_log`). */
  readonly workflows: WorkflowRunStore;
}

/** Connects, brings the schema up to date and reads the usage counts. */
export async function createPostgresStore(options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const schema = options.schema ?? "skillshelf";
  const q = quoteSchema(schema);
  if (!options.pool && !options.connectionString) {
    throw new Error("skillshelf: createPostgresStore needs a connectionString or a pool");
  }
  const ownPool = !options.pool;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
  // An idle connection that drops (a database restart) must not crash the host process.
  if (ownPool) pool.on("error", () => undefined);
  let warned = false;
  const onError =
    options.onError ??
    ((error: Error) => {
      if (warned) return;
      warned = true;
      process.emitWarning(error.message, "SkillshelfWarning");
    });
  const lockWait = Number.isFinite(options.lockWait) ? Math.max(1, Math.floor(options.lockWait!)) : 10_000;

  try {
    if (options.migrate !== false) await migrate(pool, schema);
  } catch (error) {
    if (ownPool) await pool.end().catch(() => undefined);
    throw error;
  }

  const usage = createPostgresUsageStore(pool, q, { pullInterval: options.usagePullInterval, onError });
  const events = createPostgresEventStore(pool, q, { text: options.eventText, onError });
  await usage.sync(true);

  async function writeSkill<T>(name: string, task: (scope: SkillWriteScope) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(pool, async (client) => {
        await client.query(`SET LOCAL lock_timeout = '${lockWait}ms'`);
        await client.query(`INSERT INTO ${q}.skills (name) VALUES ($1) ON CONFLICT DO NOTHING`, [name]);
        await client.query(`SELECT name FROM ${q}.skills WHERE name = $1 FOR UPDATE`, [name]);
        const history = versionsOn(client, q);
        return task({
          // Read under the row lock: no other instance can move it until this transaction ends.
          head: async () => {
            const { rows } = await client.query<{ hash: string }>(
              `SELECT hash FROM ${q}.versions WHERE skill = $1 ORDER BY seq DESC LIMIT 1`,
              [name],
            );
            return rows[0]?.hash;
          },
          history,
          ledger: ledgerOn(client, q),
        });
      });
    } catch (error) {
      if (sqlState(error) === "55P03") {
        throw new SkillWriteError(
          "LOCKED",
          `another instance has been writing ${name} for over ${lockWait} ms; try again later; nothing was written`,
          { name, lockWait },
          { cause: error },
        );
      }
      throw error;
    }
  }

  const flush = async () => {
    await Promise.all([events.flush(), usage.flush()]);
  };
  let closed: Promise<void> | undefined;

  return {
    kind: "postgres",
    pool,
    schema,
    usage,
    events,
    history: versionsOn(pool, q),
    ledger: ledgerOn(pool, q),
    proposals: createPostgresProposalStore(pool, q),
    workflows: createPostgresRunStore(pool, q, schema),
    writeSkill,
    sync: () => usage.sync(),
    flush,
    close() {
      closed ??= (async () => {
        await flush();
        if (ownPool) await pool.end();
      })();
      return closed;
    },
  };
}
