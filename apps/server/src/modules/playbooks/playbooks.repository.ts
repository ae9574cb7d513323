import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  MissedTradesTable,
  PlaybookGroupsTable,
  PlaybookRulesTable,
  PlaybooksTable,
  TradeReviewsTable,
} from '../../db/schema';
import { bumpDataVersion } from '../../db/data-versions';
import type { PlaybooksDb } from './tables';

export type PlaybookRow = Selectable<PlaybooksTable>;
export type GroupRow = Selectable<PlaybookGroupsTable>;
export type RuleRow = Selectable<PlaybookRulesTable>;
export type ReviewRow = Selectable<TradeReviewsTable>;
export type MissedRow = Selectable<MissedTradesTable>;

/** A trade as the journal names it in its tables: the account key and the trade id. */
export interface TradeKey {
  accountKey: string;
  tradeId: string;
}

/** A checklist as an edit leaves it: every group and rule of the playbook, current or retired. */
export interface Checklist {
  groups: GroupRow[];
  rules: RuleRow[];
}

type Tx = Transaction<PlaybooksDb>;

/** The playbooks' SQL, every query scoped by the user. */
export function createPlaybooksRepository(db: Kysely<PlaybooksDb>) {
  return {
    /** Runs `work` in one transaction; `listChanged` moves the user's list version inside it (a review changed). */
    transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    /** The list version moves with a review's write (db/data-versions.ts): the trade list shows reviews. */
    listChanged: (trx: Tx, userId: string, at: string) => bumpDataVersion(trx, userId, at, 'list'),

    playbooks: (userId: string) =>
      db
        .selectFrom('playbooks')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    playbook: (userId: string, id: string, trx: Kysely<PlaybooksDb> = db) =>
      trx.selectFrom('playbooks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst(),

    async countPlaybooks(userId: string): Promise<number> {
      const row = await db
        .selectFrom('playbooks')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Every group and rule (retired ones too) of these playbooks, in position order. */
    async checklists(
      userId: string,
      playbookIds: readonly string[],
      trx: Kysely<PlaybooksDb> = db,
    ): Promise<Checklist> {
      if (playbookIds.length === 0) return { groups: [], rules: [] };
      const [groups, rules] = await Promise.all([
        trx
          .selectFrom('playbook_groups')
          .selectAll()
          .where('user_id', '=', userId)
          .where('playbook_id', 'in', [...playbookIds])
          .orderBy('position')
          .orderBy('id')
          .execute(),
        trx
          .selectFrom('playbook_rules')
          .selectAll()
          .where('user_id', '=', userId)
          .where('playbook_id', 'in', [...playbookIds])
          .orderBy('position')
          .orderBy('id')
          .execute(),
      ]);
      return { groups, rules };
    },

    /** Per playbook: its assigned trades, how many are reviewed and how many followed every rule. */
    async reviewCounts(userId: string) {
      const rows = await db
        .selectFrom('trade_reviews')
        .select((eb) => [
          'playbook_id',
          eb.fn.countAll<number | string>().as('trades'),
          eb.fn.sum<number | string | null>('reviewed').as('reviewed'),
          eb.fn.sum<number | string | null>(eb.fn.coalesce('followed_all', eb.lit(0))).as('followed'),
        ])
        .where('user_id', '=', userId)
        .groupBy('playbook_id')
        .execute();
      return new Map(
        rows.map((r) => [
          r.playbook_id,
          { trades: Number(r.trades), reviewed: Number(r.reviewed ?? 0), followed: Number(r.followed ?? 0) },
        ]),
      );
    },

    /** Per playbook: its missed trades. */
    async missedCounts(userId: string) {
      const rows = await db
        .selectFrom('missed_trades')
        .select((eb) => ['playbook_id', eb.fn.countAll<number | string>().as('n')])
        .where('user_id', '=', userId)
        .where('playbook_id', 'is not', null)
        .groupBy('playbook_id')
        .execute();
      return new Map(rows.map((r) => [r.playbook_id!, Number(r.n)]));
    },

    insertPlaybook: (trx: Tx, row: PlaybookRow) => trx.insertInto('playbooks').values(row).execute(),

    updatePlaybook: (trx: Tx, userId: string, id: string, values: Partial<PlaybookRow>) =>
      trx.updateTable('playbooks').set(values).where('user_id', '=', userId).where('id', '=', id).execute(),

    /** Writes the checklist's groups and rules as given: inserted when new, updated (moved, renamed, revived) else. */
    async saveChecklist(trx: Tx, existing: Checklist, next: Checklist): Promise<void> {
      const groupIds = new Set(existing.groups.map((g) => g.id));
      const ruleIds = new Set(existing.rules.map((r) => r.id));
      for (const g of next.groups)
        if (groupIds.has(g.id))
          await trx
            .updateTable('playbook_groups')
            .set({ name: g.name, position: g.position, retired_at: g.retired_at })
            .where('id', '=', g.id)
            .where('user_id', '=', g.user_id)
            .execute();
        else await trx.insertInto('playbook_groups').values(g).execute();
      for (const r of next.rules)
        if (ruleIds.has(r.id))
          await trx
            .updateTable('playbook_rules')
            .set({ text: r.text, group_id: r.group_id, position: r.position, retired_at: r.retired_at })
            .where('id', '=', r.id)
            .where('user_id', '=', r.user_id)
            .execute();
        else await trx.insertInto('playbook_rules').values(r).execute();
    },

    /** Deletes the playbook with its checklist and its trades' reviews; its missed trades keep their data. */
    async deletePlaybook(trx: Tx, userId: string, id: string): Promise<number> {
      const reviews = await trx
        .deleteFrom('trade_reviews')
        .where('user_id', '=', userId)
        .where('playbook_id', '=', id)
        .executeTakeFirst();
      await trx
        .updateTable('missed_trades')
        .set({ playbook_id: null })
        .where('user_id', '=', userId)
        .where('playbook_id', '=', id)
        .execute();
      await trx.deleteFrom('playbook_rules').where('user_id', '=', userId).where('playbook_id', '=', id).execute();
      await trx.deleteFrom('playbook_groups').where('user_id', '=', userId).where('playbook_id', '=', id).execute();
      await trx.deleteFrom('playbooks').where('user_id', '=', userId).where('id', '=', id).execute();
      return Number(reviews.numDeletedRows);
    },

    /** The reviews of these trades, by `<account key> <trade id>`. */
    async reviewsOf(userId: string, keys: readonly TradeKey[], trx: Kysely<PlaybooksDb> = db) {
      const out = new Map<string, ReviewRow>();
      if (keys.length === 0) return out;
      const rows = await trx
        .selectFrom('trade_reviews')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_key', 'in', [...new Set(keys.map((k) => k.accountKey))])
        .where('trade_id', 'in', [...new Set(keys.map((k) => k.tradeId))])
        .execute();
      for (const r of rows) out.set(`${r.account_key} ${r.trade_id}`, r);
      return out;
    },

    /** Every review of the playbook's trades. */
    reviewsOfPlaybook: (userId: string, playbookId: string) =>
      db
        .selectFrom('trade_reviews')
        .selectAll()
        .where('user_id', '=', userId)
        .where('playbook_id', '=', playbookId)
        .execute(),

    upsertReview: (trx: Tx, row: ReviewRow) =>
      trx
        .insertInto('trade_reviews')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['user_id', 'account_key', 'trade_id']).doUpdateSet({
            playbook_id: row.playbook_id,
            reviewed: row.reviewed,
            rule_ids: row.rule_ids,
            followed_rule_ids: row.followed_rule_ids,
            followed_all: row.followed_all,
            updated_at: row.updated_at,
          }),
        )
        .execute(),

    async deleteReview(trx: Tx, userId: string, key: TradeKey): Promise<boolean> {
      const result = await trx
        .deleteFrom('trade_reviews')
        .where('user_id', '=', userId)
        .where('account_key', '=', key.accountKey)
        .where('trade_id', '=', key.tradeId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The user's missed trades with a time in [from, to] (either bound optional), newest first. */
    missedTrades(userId: string, range: { from?: string | undefined; to?: string | undefined; playbookId?: string }) {
      let query = db.selectFrom('missed_trades').selectAll().where('user_id', '=', userId);
      if (range.from) query = query.where('time', '>=', range.from);
      if (range.to) query = query.where('time', '<=', range.to);
      if (range.playbookId) query = query.where('playbook_id', '=', range.playbookId);
      return query.orderBy('time', 'desc').orderBy('id').execute();
    },

    missedTrade: (userId: string, id: string) =>
      db.selectFrom('missed_trades').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst(),

    insertMissed: (row: MissedRow) => db.insertInto('missed_trades').values(row).execute(),

    async updateMissed(userId: string, id: string, values: Partial<MissedRow>): Promise<boolean> {
      const result = await db
        .updateTable('missed_trades')
        .set(values)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteMissed(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('missed_trades')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type PlaybooksRepository = ReturnType<typeof createPlaybooksRepository>;
