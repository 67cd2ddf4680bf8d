/**
 * Improvement proposals in the `proposals` table. A status change (`update`) runs in one
 * transaction holding the proposal's row lock, so two instances can never both accept (or
 * accept and reject) the same proposal; the record it saves is written on that same
 * connection. Every row read back is checked against the proposal schema.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ImproveError, type ImprovementProposal } from "@skillshelf/core";
import { type ProposalStore, parseStoredProposal } from "@skillshelf/core/store";
import type pg from "pg";
import { inTransaction, type Queryable } from "./sql.js";
import { storableJson, storableText } from "./storable-text.js";

export function createPostgresProposalStore(pool: pg.Pool, q: string): ProposalStore {
  // The connection of the update under way in this async context, and the proposal it holds.
  const holding = new AsyncLocalStorage<{ client: pg.PoolClient; id: string }>();
  const where = (id: string) => `${q}.proposals/${id}`;

  const decode = (id: string, json: unknown) => parseStoredProposal(json, where(id), id);

  async function read(db: Queryable, id: string, lock: boolean): Promise<ImprovementProposal> {
    const { rows } = await db.query<{ proposal: unknown }>(
      `SELECT proposal FROM ${q}.proposals WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
      [storableText(id)],
    );
    if (!rows[0]) throw new ImproveError("NOT_FOUND", `no improvement proposal "${id}"`, { id });
    return decode(id, rows[0].proposal);
  }

  async function resolveId(idOrPrefix: string): Promise<string> {
    const wanted = idOrPrefix.trim();
    if (wanted === "")
      throw new ImproveError("NOT_FOUND", `no improvement proposal "${idOrPrefix}"`, { id: idOrPrefix });
    // starts_with/right rather than LIKE: the user's text is never a pattern.
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM ${q}.proposals
        WHERE id = $1 OR starts_with(id, $1) OR right(id, length($1)) = $1
        ORDER BY id DESC LIMIT 9`,
      [storableText(wanted)],
    );
    const matches = rows.map((r) => r.id);
    if (matches.includes(storableText(wanted))) return storableText(wanted);
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new ImproveError(
        "AMBIGUOUS",
        `"${idOrPrefix}" matches several proposals: ${matches.slice(0, 8).join(", ")}`,
        {
          matches,
        },
      );
    }
    throw new ImproveError("NOT_FOUND", `no improvement proposal "${idOrPrefix}"`, { id: idOrPrefix });
  }

  return {
    async save(proposal) {
      const held = holding.getStore();
      const db: Queryable = held && held.id === proposal.id ? held.client : pool;
      await db.query(
        `INSERT INTO ${q}.proposals (id, skill, status, proposal) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET skill = EXCLUDED.skill, status = EXCLUDED.status, proposal = EXCLUDED.proposal`,
        [storableText(proposal.id), storableText(proposal.skill), proposal.status, storableJson(proposal)],
      );
    },
    async load(idOrPrefix) {
      return read(pool, await resolveId(idOrPrefix), false);
    },
    async list() {
      const { rows } = await pool.query<{ id: string; proposal: unknown }>(
        `SELECT id, proposal FROM ${q}.proposals ORDER BY id DESC`,
      );
      const proposals: ImprovementProposal[] = [];
      const problems: string[] = [];
      for (const row of rows) {
        try {
          proposals.push(decode(row.id, row.proposal));
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
      return { proposals, problems };
    },
    async update(idOrPrefix, task) {
      const id = await resolveId(idOrPrefix);
      return inTransaction(pool, (client) =>
        holding.run({ client, id }, async () => task(await read(client, id, true))),
      );
    },
  };
}
