/** The decision ledger as an append-only table: one row per record, the record kept whole as JSON. */
import type { LedgerRecord, LedgerStore } from "@skillshelf/core";
import type { Queryable } from "./sql.js";
import { storableJson, storableText } from "./storable-text.js";

export function ledgerOn(db: Queryable, q: string): LedgerStore {
  return {
    async append(input) {
      const record: LedgerRecord = { ...input, at: input.at ?? new Date().toISOString() };
      await db.query(`INSERT INTO ${q}.ledger (skill, type, record) VALUES ($1, $2, $3)`, [
        storableText(record.skill),
        record.type,
        storableJson(record),
      ]);
      return record;
    },
    async read(filter = {}) {
      const { rows } = await db.query<{ record: LedgerRecord }>(
        `SELECT record FROM ${q}.ledger
          WHERE ($1::text IS NULL OR skill = $1) AND ($2::text[] IS NULL OR type = ANY($2))
          ORDER BY seq`,
        // As the rows were written (a skill name with a NUL was stored with U+FFFD).
        [
          filter.skill === undefined ? null : storableText(filter.skill),
          filter.types ? filter.types.map(storableText) : null,
        ],
      );
      return { records: rows.map((r) => r.record), malformedLines: [] };
    },
  };
}
