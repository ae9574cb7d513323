import type { Insertable, Kysely } from 'kysely';
import type { UserInfoTable } from '../../db/schema';
import type { SettingsTables } from './tables';

/** A user with a saved OANDA token, and when their settings were last saved. */
export interface ConnectedUser {
  userId: string;
  savedAt: string;
}

export function createSettingsRepository(db: Kysely<SettingsTables>) {
  return {
    find: (userId: string) => db.selectFrom('user_info').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    async save(row: Insertable<UserInfoTable>): Promise<void> {
      const { user_id: _id, ...rest } = row;
      await db
        .insertInto('user_info')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doUpdateSet(rest))
        .execute();
    },

    /**
     * Users with a saved OANDA token, in user id order after `after`, `limit` of them: their id and when their
     * settings were last saved (the background sync's scheduler walks them a page at a time).
     */
    async connectedUsers(limit: number, after?: string): Promise<ConnectedUser[]> {
      let query = db
        .selectFrom('user_info')
        .select(['user_id', 'updated_at'])
        .where('oanda_access_token', 'is not', null);
      if (after !== undefined) query = query.where('user_id', '>', after);
      const rows = await query.orderBy('user_id').limit(limit).execute();
      return rows.map((r) => ({ userId: r.user_id, savedAt: r.updated_at }));
    },

    /** When the user's settings were last saved, if they hold an OANDA token; null without one. */
    async connectedSince(userId: string): Promise<string | null> {
      const row = await db
        .selectFrom('user_info')
        .select('updated_at')
        .where('user_id', '=', userId)
        .where('oanda_access_token', 'is not', null)
        .executeTakeFirst();
      return row?.updated_at ?? null;
    },

    /** Rows whose OANDA token is still sealed the v1 way (no associated data): the startup upgrade re-seals them. */
    legacyTokens: () =>
      db
        .selectFrom('user_info')
        .select(['user_id', 'oanda_access_token'])
        .where('oanda_access_token', 'like', 'v1:%')
        .execute(),

    /** Replaces the token only if it is still `from` (another instance may have upgraded it first); true if replaced. */
    async replaceToken(userId: string, from: string, to: string): Promise<boolean> {
      const result = await db
        .updateTable('user_info')
        .set({ oanda_access_token: to })
        .where('user_id', '=', userId)
        .where('oanda_access_token', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Saves the user's time zone alone (the other settings keep their values, or their defaults for a new row). */
    async saveTimeZone(userId: string, timeZone: string, defaults: Insertable<UserInfoTable>): Promise<void> {
      await db
        .insertInto('user_info')
        .values({ ...defaults, time_zone: timeZone })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ time_zone: timeZone, updated_at: defaults.updated_at }))
        .execute();
    },

    /** Saves the user's home currency alone (the other settings keep their values, or their defaults for a new row). */
    async saveHomeCurrency(userId: string, currency: string, defaults: Insertable<UserInfoTable>): Promise<void> {
      await db
        .insertInto('user_info')
        .values({ ...defaults, home_currency: currency })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ home_currency: currency, updated_at: defaults.updated_at }),
        )
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
