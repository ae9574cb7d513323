import type { Insertable, Kysely } from 'kysely';
import type { Database, UserInfoTable } from '../../db/schema';

export function createSettingsRepository(db: Kysely<Database>) {
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

    /** Saves the user's time zone alone (the other settings keep their values, or their defaults for a new row). */
    async saveTimeZone(userId: string, timeZone: string, defaults: Insertable<UserInfoTable>): Promise<void> {
      await db
        .insertInto('user_info')
        .values({ ...defaults, time_zone: timeZone })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ time_zone: timeZone, updated_at: defaults.updated_at }))
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
