import type { Kysely, Selectable } from 'kysely';
import type { RuleDaysTable, RuleSetStatesTable } from '../../db/schema';
import type { RulesTables } from './tables';

export type RuleDayRow = Selectable<RuleDaysTable>;
export type RuleSetStateRow = Selectable<RuleSetStatesTable>;

/** Rows per insert: well under both databases' limits of bound values. */
const BATCH = 200;

/**
 * The stored day records of rule sets and their states (migration 029, docs/rules.md, Status). Rows are named by
 * their set's id; the service reaches them only for a set it found as the user's.
 */
export function createRuleDayStore(db: Kysely<RulesTables>) {
  return {
    state(ruleSetId: string): Promise<RuleSetStateRow | undefined> {
      return db.selectFrom('rule_set_states').selectAll().where('rule_set_id', '=', ruleSetId).executeTakeFirst();
    },

    /** Each stored day's number and digest, in order. */
    digests(ruleSetId: string): Promise<Array<{ day: number; digest: string }>> {
      return db
        .selectFrom('rule_days')
        .select(['day', 'digest'])
        .where('rule_set_id', '=', ruleSetId)
        .orderBy('day')
        .execute();
    },

    /** The stored days before `before` (all without it), in order: their records and trade breaks. */
    records(ruleSetId: string, before?: number): Promise<Array<Pick<RuleDayRow, 'day' | 'record' | 'breaks'>>> {
      let query = db.selectFrom('rule_days').select(['day', 'record', 'breaks']).where('rule_set_id', '=', ruleSetId);
      if (before !== undefined) query = query.where('day', '<', before);
      return query.orderBy('day').execute();
    },

    /** The state carried into a stored day (null on the set's first day or when the day is not stored). */
    async carried(ruleSetId: string, day: number): Promise<string | null> {
      const row = await db
        .selectFrom('rule_days')
        .select('carried')
        .where('rule_set_id', '=', ruleSetId)
        .where('day', '=', day)
        .executeTakeFirst();
      return row?.carried ?? null;
    },

    /** The days from `fromDay` on replaced by `rows`, and the set's state, in one transaction. */
    async replace(ruleSetId: string, fromDay: number, rows: RuleDayRow[], state: RuleSetStateRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('rule_days').where('rule_set_id', '=', ruleSetId).where('day', '>=', fromDay).execute();
        for (let i = 0; i < rows.length; i += BATCH)
          await trx
            .insertInto('rule_days')
            .values(rows.slice(i, i + BATCH))
            .execute();
        const { rule_set_id: _id, ...values } = state;
        await trx
          .insertInto('rule_set_states')
          .values(state)
          .onConflict((oc) => oc.column('rule_set_id').doUpdateSet(values))
          .execute();
      });
    },

    /** A set's stored days and state gone (the set edited or deleted). */
    async forget(ruleSetId: string): Promise<void> {
      await db.deleteFrom('rule_days').where('rule_set_id', '=', ruleSetId).execute();
      await db.deleteFrom('rule_set_states').where('rule_set_id', '=', ruleSetId).execute();
    },
  };
}
export type RuleDayStore = ReturnType<typeof createRuleDayStore>;
