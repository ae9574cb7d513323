import type { Kysely, Selectable } from 'kysely';
import type { RuleAlertsTable, RuleSetsTable } from '../../db/schema';
import type { RulesTables } from './tables';

export type RuleSetRow = Selectable<RuleSetsTable>;
export type RuleAlertRow = Selectable<RuleAlertsTable>;

/** The newest alerts get_alerts answers with. */
const ALERTS_LISTED = 200;

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
      values: Pick<
        RuleSetRow,
        'name' | 'start_time' | 'initial_balance' | 'rules' | 'alert_thresholds' | 'email_alerts' | 'updated_at'
      >,
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
    /** The user's rule sets of one account. */
    ofAccount(userId: string, accountKey: string): Promise<RuleSetRow[]> {
      return db
        .selectFrom('rule_sets')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_key', '=', accountKey)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /**
     * Inserts the alerts in one statement, each unless its (rule set, kind, day, threshold) is stored already; answers
     * the ids this statement inserted (another instance's concurrent insert of the same alert wins or waits, never
     * both: docs/rules.md, Alerts).
     */
    async insertAlerts(rows: RuleAlertRow[]): Promise<Set<string>> {
      if (rows.length === 0) return new Set();
      const inserted = await db
        .insertInto('rule_alerts')
        .values(rows)
        .onConflict((oc) => oc.columns(['rule_set_id', 'kind', 'day', 'threshold']).doNothing())
        .returning('id')
        .execute();
      return new Set(inserted.map((r) => r.id));
    },
    async markEmailed(ids: readonly string[], at: string): Promise<void> {
      if (ids.length === 0) return;
      await db.updateTable('rule_alerts').set({ emailed_at: at }).where('id', 'in', ids).execute();
    },
    /** The user's alerts, newest first, with their rule set's name and account (ALERTS_LISTED at most). */
    alerts(userId: string, unreadOnly: boolean) {
      let query = db
        .selectFrom('rule_alerts')
        .innerJoin('rule_sets', 'rule_sets.id', 'rule_alerts.rule_set_id')
        .selectAll('rule_alerts')
        .select(['rule_sets.name as rule_set_name', 'rule_sets.account_key'])
        .where('rule_alerts.user_id', '=', userId);
      if (unreadOnly) query = query.where('rule_alerts.read_at', 'is', null);
      return query
        .orderBy('rule_alerts.created_at', 'desc')
        .orderBy('rule_alerts.threshold', 'desc')
        .orderBy('rule_alerts.id', 'desc')
        .limit(ALERTS_LISTED)
        .execute();
    },
    async unreadCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom('rule_alerts')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Marks the user's unread alerts read: the named ones (another user's ids match nothing), else all. */
    async markRead(userId: string, ids: readonly string[] | undefined, at: string): Promise<number> {
      if (ids !== undefined && ids.length === 0) return 0;
      let query = db
        .updateTable('rule_alerts')
        .set({ read_at: at })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null);
      if (ids !== undefined) query = query.where('id', 'in', ids);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
export type RulesRepository = ReturnType<typeof createRulesRepository>;
