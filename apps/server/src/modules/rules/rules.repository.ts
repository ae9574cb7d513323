import type { Kysely, Selectable } from 'kysely';
import type { RuleSetsTable } from '../../db/schema';
import type { RulesTables } from './tables';

export type RuleSetRow = Selectable<RuleSetsTable>;

/** The user's rule sets (migration 027): every query names the user, so another user's set is never found. */
export function createRulesRepository(db: Kysely<RulesTables>) {
  return {
    list(userId: string): Promise<RuleSetRow[]> {
      return db
        .selectFrom('rule_sets')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    find(userId: string, id: string): Promise<RuleSetRow | undefined> {
      return db
        .selectFrom('rule_sets')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async insert(row: RuleSetRow): Promise<void> {
      await db.insertInto('rule_sets').values(row).execute();
    },

    async update(
      userId: string,
      id: string,
      values: Pick<RuleSetRow, 'name' | 'start_time' | 'initial_balance' | 'rules' | 'updated_at'>,
    ): Promise<void> {
      await db.updateTable('rule_sets').set(values).where('user_id', '=', userId).where('id', '=', id).execute();
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('rule_sets')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type RulesRepository = ReturnType<typeof createRulesRepository>;
