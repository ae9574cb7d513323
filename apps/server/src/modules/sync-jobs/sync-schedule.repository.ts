import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { SyncSchedulesTable } from '../../db/schema';
import type { SyncDueReads } from './tables';

export type SyncScheduleRow = Selectable<SyncSchedulesTable>;

/** Minutes between background syncs for a user without a row (SYNC_INTERVAL_MINUTES['15m']). */
export const DEFAULT_INTERVAL_MINUTES = 15;

/**
 * The sync_schedules table. Times are UTC ISO-8601 text of one width (Date#toISOString), so text order is time order
 * on both dialects. Which users are connected is read from user_info (a saved OANDA token): the scheduler needs it
 * for every user at once, which the settings service does not offer.
 */
export function createSyncScheduleRepository(db: Kysely<SyncDueReads>) {
  async function ensure(userId: string, now: string): Promise<void> {
    await db
      .insertInto('sync_schedules')
      .values({ user_id: userId, interval_minutes: DEFAULT_INTERVAL_MINUTES, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  function dueQuery(now: Date) {
    const stamp = now.toISOString();
    return db
      .selectFrom('user_info as i')
      .leftJoin('sync_schedules as s', 's.user_id', 'i.user_id')
      .select('i.user_id')
      .where('i.oanda_access_token', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('s.user_id', 'is', null),
          eb.and([
            eb('s.interval_minutes', '>', 0),
            eb.or([eb('s.lease_until', 'is', null), eb('s.lease_until', '<', stamp)]),
            eb.or([eb('s.next_due_at', 'is', null), eb('s.next_due_at', '<=', stamp)]),
            eb.or([eb('s.paused_at', 'is', null), eb('i.updated_at', '>', sql<string>`s.paused_at`)]),
          ]),
        ]),
      );
  }

  return {
    ensure,

    async get(userId: string): Promise<SyncScheduleRow | undefined> {
      return db.selectFrom('sync_schedules').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    async connected(userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('user_info')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('oanda_access_token', 'is not', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Sets the interval (minutes, 0 = off) and resumes a paused schedule. */
    async setInterval(userId: string, minutes: number, now: Date): Promise<void> {
      const stamp = now.toISOString();
      await ensure(userId, stamp);
      const row = await db
        .selectFrom('sync_schedules')
        .select('last_synced_at')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      // Never synced: due now; else one interval after the last sync (now at the earliest).
      const from = row.last_synced_at ? Date.parse(row.last_synced_at) + minutes * 60_000 : now.getTime();
      const next = minutes > 0 ? new Date(Math.max(from, now.getTime())).toISOString() : null;
      await db
        .updateTable('sync_schedules')
        .set({ interval_minutes: minutes, next_due_at: next, failures: 0, paused_at: null, updated_at: stamp })
        .where('user_id', '=', userId)
        .execute();
    },

    /**
     * Users whose background sync is due at `now`: a saved token, schedule not off, not running (lease free or run
     * out), due, and not paused, unless the OANDA settings were saved since the pause. Users without a row are due.
     * A page of `limit` in user id order, after `after` (the last id of the page before).
     */
    async due(now: Date, limit = 1000, after?: string): Promise<string[]> {
      let query = dueQuery(now);
      if (after !== undefined) query = query.where('i.user_id', '>', after);
      const rows = await query.orderBy('i.user_id').limit(limit).execute();
      return rows.map((r) => r.user_id);
    },

    /** Whether this user's background sync is due at `now` (the same rules as `due`). */
    async isDue(userId: string, now: Date): Promise<boolean> {
      return (await dueQuery(now).where('i.user_id', '=', userId).executeTakeFirst()) !== undefined;
    },

    /**
     * Takes the user's lease (the lock every instance shares) with one conditional update. `scheduled`: only while
     * the background sync is still due, so a duplicate job that comes after a finished sync does nothing.
     */
    async claim(userId: string, owner: string, now: Date, leaseMs: number, scheduled: boolean): Promise<boolean> {
      const stamp = now.toISOString();
      await ensure(userId, stamp);
      let query = db
        .updateTable('sync_schedules')
        .set({
          lease_owner: owner,
          lease_until: new Date(now.getTime() + leaseMs).toISOString(),
          started_at: stamp,
          progress_pages: 0,
          progress_trades: 0,
          updated_at: stamp,
        })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', stamp)]));
      if (scheduled)
        query = query
          .where('interval_minutes', '>', 0)
          .where((eb) => eb.or([eb('next_due_at', 'is', null), eb('next_due_at', '<=', stamp)]));
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records progress and renews the lease: a long sync that keeps writing pages keeps its lock. */
    async progress(userId: string, owner: string, pages: number, trades: number, leaseUntil: Date): Promise<void> {
      await db
        .updateTable('sync_schedules')
        .set({ progress_pages: pages, progress_trades: trades, lease_until: leaseUntil.toISOString() })
        .where('user_id', '=', userId)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Ends a lease (unless `keepLease`); `outcome` is what to store with it (success or failure fields). */
    async release(
      userId: string,
      owner: string,
      now: Date,
      outcome: Pick<
        Updateable<SyncSchedulesTable>,
        'last_synced_at' | 'next_due_at' | 'last_error' | 'failures' | 'paused_at'
      >,
      /** Another sync of this owner still runs under the lease: store the outcome, keep the lease. */
      keepLease = false,
    ): Promise<void> {
      const lease = keepLease ? {} : { lease_owner: null, lease_until: null, started_at: null };
      await db
        .updateTable('sync_schedules')
        .set({ ...outcome, ...lease, updated_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('lease_owner', '=', owner)
        .execute();
    },
  };
}
export type SyncScheduleRepository = ReturnType<typeof createSyncScheduleRepository>;
