/**
 * Events in the `events` table, with their session, thread and run ids in columns of their
 * own so one conversation's events can be pulled out of a server shared by many. Emitting
 * is synchronous and cheap (it only queues); rows go out in batches off the hot path, and a
 * failing database is reported once, never thrown into the host's turn. User text is kept
 * as the file log keeps it (a sha256 prefix and the first characters by default).
 */
import {
  type EventQuery,
  type EventStore,
  parseEvents,
  redactEvent,
  type SkillEvent,
  type TextPolicy,
} from "@skillshelf/core";
import type pg from "pg";
import { storableJson, storableText } from "./storable-text.js";

export interface PostgresEventOptions {
  text?: TextPolicy;
  prefixLength?: number;
  onError: (error: Error) => void;
}

export function createPostgresEventStore(
  pool: pg.Pool,
  q: string,
  options: PostgresEventOptions,
): EventStore {
  const policy = { text: options.text ?? "prefix", prefixLength: options.prefixLength ?? 24 } as const;
  let pending: SkillEvent[] = [];
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;

  const send = async () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      await pool.query(
        `INSERT INTO ${q}.events (at, type, skill, session, thread, run, event)
           SELECT e->>'at', e->>'type', e->>'skill', e->>'session', e->>'thread', e->>'run', e
             FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n) ORDER BY n`,
        [storableJson(batch)],
      );
    } catch (error) {
      options.onError(
        new Error(`skillshelf: could not store ${batch.length} event(s): ${(error as Error).message}`),
      );
    }
  };

  return {
    emit(event) {
      try {
        pending.push(redactEvent(event, policy));
      } catch (error) {
        options.onError(error as Error);
        return;
      }
      if (!scheduled) {
        scheduled = true;
        chain = chain.then(send);
      }
    },
    flush: () => chain,
    async read(query: EventQuery = {}) {
      await chain;
      const { rows } = await pool.query<{ event: unknown }>(
        `SELECT event FROM ${q}.events
          WHERE ($1::text IS NULL OR session = $1) AND ($2::text IS NULL OR thread = $2)
            AND ($3::text IS NULL OR run = $3) AND ($4::text IS NULL OR skill = $4)
            AND ($5::text IS NULL OR at >= $5)
          ORDER BY seq`,
        // As the rows were written: an id with a NUL finds the events stored under its U+FFFD form.
        [query.session, query.thread, query.run, query.skill, query.since].map((value) =>
          value === undefined || value === null ? null : storableText(value),
        ),
      );
      // The same check as a log file's lines: a row that is not an event is skipped and counted.
      return parseEvents(rows.map((r) => JSON.stringify(r.event)).join("\n"));
    },
  };
}
