import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { sqliteHandleOf } from './client';

/**
 * A hot read (every request of a route asks it) built once: `query` is compiled once, with placeholder values whose
 * places the returned function fills, in order, with its `parameters`.
 *
 * On SQLite the statement is prepared once and run at once, synchronously, when the one connection is not inside a
 * transaction: JavaScript runs nothing else meanwhile, so the read can see neither half of another caller's
 * transaction nor be seen by one. That skips Kysely's way to the connection (its lock, the driver's promises,
 * building and compiling the query), which costs several times the indexed read itself (bench/api.bench.ts,
 * decision 020). Inside a transaction (some caller's `BEGIN` awaits between statements) or while the connection is
 * busy, the read goes through Kysely and waits for its turn like any other query. On PostgreSQL it always goes
 * through Kysely, its SQL compiled once.
 */
export function compiledRead<Row, Tables>(
  db: Kysely<Tables>,
  query: Compilable<Row>,
): (...parameters: unknown[]) => Promise<Row[]> {
  const { sql } = query.compile();
  const viaKysely = async (parameters: unknown[]) =>
    (await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
  const sqlite = sqliteHandleOf(db);
  if (!sqlite) return (...parameters) => viaKysely(parameters);
  let statement: ReturnType<typeof sqlite.prepare> | undefined;
  return (...parameters) => {
    if (sqlite.inTransaction || !sqlite.open) return viaKysely(parameters);
    try {
      statement ??= sqlite.prepare(sql);
      return Promise.resolve(statement.all(parameters) as Row[]);
    } catch (error) {
      // The connection is busy (a statement being iterated across an await): wait for Kysely's turn instead.
      if (error instanceof TypeError) return viaKysely(parameters);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}
