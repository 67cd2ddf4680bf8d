/**
 * Workflow runs on PostgreSQL: one row per run holding its checkpoint (replaced whole in one
 * statement: a crash leaves the old row or the new one), an append-only log table, and one
 * executor per run across instances by a session advisory lock on a connection of its own:
 * if the holder dies, its connection goes and the lock with it, so a resume never waits on a
 * dead instance.
 */
import { assertRunId, type WorkflowCheckpoint, type WorkflowRunStore } from "@skillshelf/core";
import type pg from "pg";
import { sqlState } from "./sql.js";
import { storableJson, storableText } from "./storable-text.js";

export function createPostgresRunStore(
  pool: pg.Pool,
  q: string,
  schema: string,
  options: { lockWait?: number } = {},
): WorkflowRunStore {
  const lockWait = options.lockWait ?? 30_000;
  return {
    async load(runId) {
      assertRunId(runId);
      const { rows } = await pool.query<{ checkpoint: WorkflowCheckpoint }>(
        `SELECT checkpoint FROM ${q}.workflow_runs WHERE run_id = $1`,
        [runId],
      );
      const checkpoint = rows[0]?.checkpoint;
      if (checkpoint === undefined) return undefined;
      if (checkpoint?.format !== 1 || checkpoint.runId !== runId || !Array.isArray(checkpoint.completed)) {
        throw new Error(`the checkpoint of ${runId} is not one skillshelf wrote`);
      }
      return checkpoint;
    },
    async save(checkpoint) {
      assertRunId(checkpoint.runId);
      await pool.query(
        `INSERT INTO ${q}.workflow_runs (run_id, skill, status, checkpoint, updated_at)
         VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (run_id) DO UPDATE
           SET skill = EXCLUDED.skill, status = EXCLUDED.status, checkpoint = EXCLUDED.checkpoint, updated_at = now()`,
        [checkpoint.runId, storableText(checkpoint.skill), checkpoint.status, storableJson(checkpoint)],
      );
    },
    async append(record) {
      assertRunId(record.run_id);
      await pool.query(`INSERT INTO ${q}.workflow_log (run_id, type, record) VALUES ($1, $2, $3)`, [
        record.run_id,
        storableText(record.type),
        storableJson(record),
      ]);
    },
    async hold(runId, task) {
      assertRunId(runId);
      const client = await pool.connect();
      let broken: Error | undefined;
      // Two keys: this schema's runs never block another schema's run of the same id.
      const keys = [`skillshelf:${schema}`, runId];
      try {
        await client.query(`SET lock_timeout = '${Math.max(1, Math.floor(lockWait))}ms'`);
        try {
          await client.query("SELECT pg_advisory_lock(hashtext($1), hashtext($2))", keys);
        } catch (error) {
          if (sqlState(error) === "55P03") {
            throw new Error(
              `another instance has been running workflow run ${runId} for over ${lockWait} ms`,
              {
                cause: error,
              },
            );
          }
          throw error;
        }
        try {
          return await task();
        } finally {
          await client
            .query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", keys)
            .catch((error: Error) => {
              broken = error; // a connection that cannot unlock is dropped: its lock goes with it
            });
        }
      } finally {
        await client.query("RESET lock_timeout").catch((error: Error) => {
          broken ??= error;
        });
        client.release(broken);
      }
    },
  };
}
