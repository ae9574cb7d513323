import type { Kysely } from 'kysely';
import type { Database, UserInfoTable } from '../../db/schema';

export function createSettingsRepository(db: Kysely<Database>) {
  return {
    find: (userId: string) => db.selectFrom('user_info').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    async save(row: UserInfoTable): Promise<void> {
      const { user_id: _id, ...rest } = row;
      await db
        .insertInto('user_info')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doUpdateSet(rest))
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
