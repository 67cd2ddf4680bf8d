import type pg from "pg";

/** A pool or one connection (inside a transaction): both run queries. */
export type Queryable = Pick<pg.ClientBase, "query">;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The schema's name, quoted for SQL. Only plain lower-case identifiers are accepted: the
 * name is spliced into statements (identifiers cannot be bound parameters), so anything
 * else is refused rather than escaped.
 */
export function quoteSchema(schema: string): string {
  if (!IDENTIFIER.test(schema)) {
    throw new Error(
      `skillshelf: "${schema}" is not a usable schema name (lower-case letters, digits and _, not starting with a digit)`,
    );
  }
  return `"${schema}"`;
}

/** Runs `task` in one transaction on its own connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(
  pool: pg.Pool,
  task: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    try {
      const result = await task(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: Error) => {
        broken = rollbackError; // the connection is unusable: drop it from the pool
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/** PostgreSQL's SQLSTATE of a failed query, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
