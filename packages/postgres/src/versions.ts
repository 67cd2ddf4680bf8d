/**
 * Kept versions in the `versions` table: the exact bytes of each, with the same ids the file
 * store uses. The newest row of a skill is its current content as every instance agrees on
 * it: the compare-and-swap key of managed writes.
 */
import { type HistoryEntry, SkillWriteError, sha256, type VersionStore } from "@skillshelf/core";
import { type AddResult, assertSafeName, formatVersionId } from "@skillshelf/core/store";
import type { Queryable } from "./sql.js";
import { storableText } from "./storable-text.js";

interface VersionRow {
  id: string;
  at: Date;
  version: string | null;
  hash: string;
  content: Buffer;
}

/** Versions read and written through `db`: a transaction's connection inside a write, else the pool. */
export function versionsOn(db: Queryable, q: string): VersionStore {
  const entry = (name: string, row: VersionRow): HistoryEntry => {
    const actual = sha256(row.content);
    return {
      id: row.id,
      name,
      at: row.at.toISOString(),
      version: row.version ?? undefined,
      hash: actual,
      size: row.content.length,
      path: `postgres:${q}.versions/${name}/${row.id}`,
      intact: actual === row.hash && row.id.endsWith(`_${row.hash.slice(0, 8)}`),
    };
  };
  const newest = async (name: string) =>
    (
      await db.query<VersionRow>(
        `SELECT id, at, version, hash, content FROM ${q}.versions WHERE skill = $1 ORDER BY seq DESC LIMIT 1`,
        [name],
      )
    ).rows[0];

  return {
    async list(name) {
      assertSafeName(name);
      const { rows } = await db.query<VersionRow>(
        `SELECT id, at, version, hash, content FROM ${q}.versions WHERE skill = $1 ORDER BY seq DESC`,
        [name],
      );
      return rows.map((row) => entry(name, row));
    },
    async read(name, id) {
      assertSafeName(name);
      const { rows } = await db.query<{ content: Buffer }>(
        `SELECT content FROM ${q}.versions WHERE skill = $1 AND id = $2`,
        // The ids this store writes never hold one; such an id is simply not found.
        [name, storableText(id)],
      );
      if (!rows[0])
        throw new SkillWriteError("NOT_FOUND", `no kept version "${id}" of ${name}`, { name, id });
      return rows[0].content;
    },
    async isManaged(name) {
      assertSafeName(name);
      return (await newest(name)) !== undefined;
    },
    async newestId(name) {
      assertSafeName(name);
      return (await newest(name))?.id;
    },
    async add(name, content, { version, keep }): Promise<AddResult> {
      assertSafeName(name);
      const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
      const hash = sha256(bytes);
      const top = await newest(name);
      const previous = top && entry(name, top);
      if (previous?.hash === hash) return { entry: previous, added: false, pruned: [], previous };
      // Strictly increasing times keep the order right even for two writes in one millisecond.
      const time = Math.max(Date.now(), top ? top.at.getTime() + 1 : 0);
      const { id, version: idVersion } = formatVersionId(time, version, hash);
      await db.query(
        `INSERT INTO ${q}.versions (skill, id, at, version, hash, size, content) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [name, id, new Date(time), idVersion ?? null, hash, bytes.length, bytes],
      );
      const { rows } = await db.query<{ id: string }>(
        `DELETE FROM ${q}.versions WHERE skill = $1 AND id NOT IN
           (SELECT id FROM ${q}.versions WHERE skill = $1 ORDER BY seq DESC LIMIT $2)
         RETURNING id`,
        [name, Math.max(keep, 1)],
      );
      return {
        entry: {
          id,
          name,
          at: new Date(time).toISOString(),
          version: idVersion,
          hash,
          size: bytes.length,
          path: `postgres:${q}.versions/${name}/${id}`,
          intact: true,
        },
        added: true,
        pruned: rows.map((r) => r.id).sort(),
        previous,
      };
    },
  };
}
