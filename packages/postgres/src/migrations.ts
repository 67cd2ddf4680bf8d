/**
 * The schema, as numbered migrations. Each runs once, in order, inside one transaction with
 * the record that it ran, under an advisory lock: instances starting together wait for one
 * another instead of racing, and a migration that fails leaves nothing behind. Running them
 * again does nothing. A migration, once released, is never edited: changes are new ones.
 */
import type pg from "pg";
import { inTransaction, quoteSchema } from "./sql.js";

export interface Migration {
  version: number;
  name: string;
  /** Statements, with `$schema` standing for the quoted schema name. */
  up: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "state tables",
    up: `
      CREATE TABLE $schema.skills (
        name text PRIMARY KEY
      );
      CREATE TABLE $schema.versions (
        skill text NOT NULL,
        id text NOT NULL,
        at timestamptz NOT NULL,
        version text,
        hash text NOT NULL,
        size integer NOT NULL,
        content bytea NOT NULL,
        PRIMARY KEY (skill, id)
      );
      CREATE TABLE $schema.ledger (
        seq bigserial PRIMARY KEY,
        skill text NOT NULL,
        type text NOT NULL,
        record jsonb NOT NULL
      );
      CREATE INDEX ledger_by_skill ON $schema.ledger (skill, seq);
      CREATE TABLE $schema.usage (
        skill text PRIMARY KEY,
        count bigint NOT NULL DEFAULT 0 CHECK (count >= 0),
        last_used timestamptz,
        first_seen timestamptz
      );
      CREATE TABLE $schema.events (
        seq bigserial PRIMARY KEY,
        at text NOT NULL,
        type text NOT NULL,
        skill text,
        session text,
        thread text,
        run text,
        event jsonb NOT NULL
      );
      CREATE INDEX events_by_session ON $schema.events (session, seq) WHERE session IS NOT NULL;
      CREATE INDEX events_by_thread ON $schema.events (thread, seq) WHERE thread IS NOT NULL;
      CREATE INDEX events_by_run ON $schema.events (run, seq) WHERE run IS NOT NULL;
      CREATE TABLE $schema.proposals (
        id text PRIMARY KEY,
        skill text NOT NULL,
        status text NOT NULL,
        proposal jsonb NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "versions in the order they were kept",
    // Ids start with a millisecond time: two versions kept in the same millisecond (the one a
    // write replaces and the one it writes) sort by their hash, so "the newest" could be the
    // replaced one and a second instance's write passed the compare-and-swap. A sequence
    // orders them as they were committed.
    up: `
      ALTER TABLE $schema.versions ADD COLUMN seq bigserial;
      CREATE INDEX versions_by_skill_seq ON $schema.versions (skill, seq);
    `,
  },
  {
    version: 3,
    name: "workflow runs: checkpoints and the run log",
    up: `
      CREATE TABLE $schema.workflow_runs (
        run_id text PRIMARY KEY,
        skill text NOT NULL,
        status text NOT NULL,
        checkpoint jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE $schema.workflow_log (
        seq bigserial PRIMARY KEY,
        run_id text NOT NULL,
        type text NOT NULL,
        record jsonb NOT NULL
      );
      CREATE INDEX workflow_log_by_run ON $schema.workflow_log (run_id, seq);
    `,
  },
];

/** Any fixed number works: it only has to be the same for every instance. */
const MIGRATION_LOCK = 0x736b696c; // "skil"

export interface MigrateResult {
  /** Versions applied by this call (empty when the schema was already current). */
  applied: number[];
  /** The schema's version afterwards. */
  version: number;
}

export async function migrate(
  pool: pg.Pool,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrateResult> {
  const q = quoteSchema(schema);
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${q}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${q}.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${q}.schema_migrations`);
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.up.replaceAll("$schema", q));
      await client.query(`INSERT INTO ${q}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
      done.add(migration.version);
    }
    return { applied, version: Math.max(0, ...done) };
  });
}
