import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * The database as one module sees it: the same client, typed with only the tables the module owns (its
 * `modules/<name>/tables.ts`), so a query naming another module's table does not compile. app.ts hands each module
 * its slice; the migrations and db/ keep the whole `Database`. docs/ARCHITECTURE.md, "Tables and their owners".
 */
export function slice<Tables extends Partial<Database>>(kysely: Kysely<Database>): Kysely<Tables> {
  // The one cast: TypeScript cannot see that a Kysely over every table also serves any subset of them (it checks
  // a generic `Tables` structurally only once it is known). Nothing changes at run time: the same object, so what
  // db/client.ts records per client (the SQLite handle) is found from any slice.
  return kysely as unknown as Kysely<Tables>;
}
