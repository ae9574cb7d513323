import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect, OverviewSnapshotsTable } from '../../db/schema';
import type { AnalyticsDb } from './tables';

export type SnapshotRow = Selectable<OverviewSnapshotsTable>;

/** The user's data version (db/data-versions.ts) as one key: `<trades and accounts>.<journal>`. */
export interface DataVersion {
  key: string;
  /** The trades-and-accounts counter alone (what a book of trades is read at, book-cache.ts). */
  data: number;
  /** When either counter last moved (RFC 3339); null before the first change. */
  changedAt: string | null;
}

/** SQLite's lock: one computation per user and scope in this process (the embedded database has no other). */
const inProcess = new Map<string, Promise<unknown>>();

/**
 * The Overview's snapshots and the data version they are keyed by, always scoped by user id. `computeOnce` runs a
 * computation under a lock every server instance shares: on PostgreSQL a transaction-scoped advisory lock on the
 * user and scope (released by the commit, or by the connection dropping when an instance dies), on SQLite a promise
 * per key in this process.
 */
export function createSnapshotRepository(db: Kysely<AnalyticsDb>, dialect: Dialect) {
  async function find(userId: string, scope: string, on: Kysely<AnalyticsDb> = db): Promise<SnapshotRow | undefined> {
    return on
      .selectFrom('overview_snapshots')
      .selectAll()
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .executeTakeFirst();
  }

  async function save(row: SnapshotRow, on: Kysely<AnalyticsDb> = db): Promise<void> {
    await on
      .insertInto('overview_snapshots')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['user_id', 'scope']).doUpdateSet({
          version: row.version,
          computed_at: row.computed_at,
          body: row.body,
          meta: row.meta,
        }),
      )
      .execute();
  }

  return {
    find: (userId: string, scope: string) => find(userId, scope),

    /** The user's stored snapshots' scopes and versions (not their bodies). */
    scopes: (userId: string): Promise<Array<Pick<SnapshotRow, 'scope' | 'version'>>> =>
      db.selectFrom('overview_snapshots').select(['scope', 'version']).where('user_id', '=', userId).execute(),

    async version(userId: string): Promise<DataVersion> {
      const row = await db
        .selectFrom('data_versions')
        .select(['version', 'journal_version', 'changed_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row
        ? { key: `${row.version}.${row.journal_version}`, data: Number(row.version), changedAt: row.changed_at }
        : { key: '0.0', data: 0, changedAt: null };
    },

    /**
     * The snapshot of `version` for the scope: the stored one when it is of that version (and not `outdated`),
     * otherwise computed by `compute` and stored, once however many callers (on however many instances) ask at the
     * same time; the others wait for it and read what it stored.
     */
    async computeOnce(
      userId: string,
      scope: string,
      version: string,
      compute: () => Promise<Omit<SnapshotRow, 'user_id' | 'scope' | 'version'>>,
      outdated: (stored: SnapshotRow) => Promise<boolean> = () => Promise.resolve(false),
    ): Promise<SnapshotRow> {
      const current = async (stored: SnapshotRow): Promise<boolean> =>
        stored.version === version && !(await outdated(stored));
      const lockKey = `overview|${userId}|${scope}`;
      if (dialect === 'postgres')
        return db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(trx);
          const stored = await find(userId, scope, trx);
          if (stored && (await current(stored))) return stored;
          const row = { user_id: userId, scope, version, ...(await compute()) };
          await save(row, trx);
          return row;
        });
      for (;;) {
        const running = inProcess.get(lockKey);
        if (!running) break;
        await running.catch(() => undefined);
      }
      const work = (async () => {
        const stored = await find(userId, scope);
        if (stored && (await current(stored))) return stored;
        const row = { user_id: userId, scope, version, ...(await compute()) };
        await save(row);
        return row;
      })();
      inProcess.set(lockKey, work);
      try {
        return await work;
      } finally {
        if (inProcess.get(lockKey) === work) inProcess.delete(lockKey);
      }
    },
  };
}
export type SnapshotRepository = ReturnType<typeof createSnapshotRepository>;
