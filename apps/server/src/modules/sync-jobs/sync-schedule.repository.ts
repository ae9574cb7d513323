import type { Kysely, Selectable, Updateable } from 'kysely';
import type { SyncSchedulesTable } from '../../db/schema';
import type { SettingsService } from '../settings';
import type { SyncJobsTables } from './tables';

export type SyncScheduleRow = Selectable<SyncSchedulesTable>;

/** Minutes between background syncs for a user without a row (SYNC_INTERVAL_MINUTES['15m']). */
const DEFAULT_INTERVAL_MINUTES = 15;

/** What the schedule asks settings (its public API): which users saved an OANDA token, and since when. */
export type ConnectedUsers = Pick<SettingsService, 'connectedUsers' | 'connectedSince'>;

/**
 * Whether a user with a saved OANDA token is due at `stamp`: no row yet (never scheduled), or the schedule is on,
 * not running (lease free or run out), due, and not paused unless the settings were saved since the pause. Times
 * are UTC ISO-8601 text of one width, so text order is time order.
 */
function dueAt(row: SyncScheduleRow | undefined, savedAt: string, stamp: string): boolean {
  if (!row) return true;
  return (
    row.interval_minutes > 0 &&
    (row.lease_until === null || row.lease_until < stamp) &&
    (row.next_due_at === null || row.next_due_at <= stamp) &&
    (row.paused_at === null || savedAt > row.paused_at)
  );
}

/**
 * The sync_schedules table. Times are UTC ISO-8601 text of one width (Date#toISOString), so text order is time order
 * on both dialects. Which users are connected (a saved OANDA token) is settings' to say, asked through `settings`.
 */
export function createSyncScheduleRepository(db: Kysely<SyncJobsTables>, settings: ConnectedUsers) {
  async function ensure(userId: string, now: string): Promise<void> {
    await db
      .insertInto('sync_schedules')
      .values({ user_id: userId, interval_minutes: DEFAULT_INTERVAL_MINUTES, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  const get = (userId: string): Promise<SyncScheduleRow | undefined> =>
    db.selectFrom('sync_schedules').selectAll().where('user_id', '=', userId).executeTakeFirst();

  return {
    ensure,
    get,

    async connected(userId: string): Promise<boolean> {
      return (await settings.connectedSince(userId)) !== null;
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
     * Users whose background sync is due at `now` (dueAt), `limit` of them in user id order after `after` (the last
     * id of the page before): the connected users are read from settings a page at a time, their schedules with them.
     */
    async due(now: Date, limit = 1000, after?: string): Promise<string[]> {
      const stamp = now.toISOString();
      const found: string[] = [];
      for (let from = after; found.length < limit;) {
        const users = await settings.connectedUsers(limit, from);
        if (users.length === 0) break;
        const rows = await db
          .selectFrom('sync_schedules')
          .selectAll()
          .where(
            'user_id',
            'in',
            users.map((u) => u.userId),
          )
          .execute();
        const byUser = new Map(rows.map((r) => [r.user_id, r]));
        for (const u of users) if (dueAt(byUser.get(u.userId), u.savedAt, stamp)) found.push(u.userId);
        if (users.length < limit) break;
        from = users.at(-1)!.userId;
      }
      return found.slice(0, limit);
    },

    /** Whether this user's background sync is due at `now` (the same rules as `due`). */
    async isDue(userId: string, now: Date): Promise<boolean> {
      const [savedAt, row] = await Promise.all([settings.connectedSince(userId), get(userId)]);
      return savedAt !== null && dueAt(row, savedAt, now.toISOString());
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

    /**
     * The heartbeat of a running sync: moves the lease's end on while `owner` still holds it; false when it does not
     * (released, or taken over after running out).
     */
    async renew(userId: string, owner: string, leaseUntil: Date): Promise<boolean> {
      const result = await db
        .updateTable('sync_schedules')
        .set({ lease_until: leaseUntil.toISOString() })
        .where('user_id', '=', userId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Start of the only instance on the database (SQLite, holding the data directory's lock: decision 017): a lease
     * held by any other owner was left by a process that ended, so it is released at once rather than when it runs
     * out. Resolves to how many were released.
     */
    async releaseLeftLeases(owner: string, now: Date): Promise<number> {
      const result = await db
        .updateTable('sync_schedules')
        .set({ lease_owner: null, lease_until: null, started_at: null, updated_at: now.toISOString() })
        .where('lease_owner', 'is not', null)
        .where('lease_owner', '<>', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
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
