import type { Kysely } from 'kysely';
import type { JournalTagsTable } from '../../db/schema';
import { bumpDataVersion } from '../../db/data-versions';
import { chunks } from '../../lib/batches';
import type { JournalDb } from './tables';

/** A trade named by its key (decision record 007): the account key and the broker's trade id. */
export interface TradeKey {
  accountKey: string;
  tradeId: string;
}

/** Rows per statement: far inside both engines' parameter limits. */
const BATCH = 200;

/**
 * Journal tags, trade notes and the tags on trades, always scoped by the owner's id: another user's tag or note
 * finds nothing. Trades are named by their key; the rows have no foreign key to `trades`, so re-syncs leave them be.
 */
export function createJournalRepository(db: Kysely<JournalDb>) {
  /** The user's tags (how many stored trades carry each: the trade views' `tagTradeCounts`). */
  const tags = (userId: string) => db.selectFrom('journal_tags').selectAll().where('user_id', '=', userId);

  return {
    /** The journal's part of the Overview changed (tags, which trade carries which): moves its data version. */
    touched: (userId: string, at: string): Promise<void> => bumpDataVersion(db, userId, at, 'journal'),

    /**
     * Gives the user `tags` unless they were given the starter set before; true when this call gave them. One
     * transaction: two first reads at once give the set once.
     */
    giveStarterTags: (userId: string, tags: readonly JournalTagsTable[], at: string): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const given = await trx
          .insertInto('journal_starter_tags')
          .values({ user_id: userId, given_at: at })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .executeTakeFirst();
        if (Number(given.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        if (tags.length > 0)
          await trx
            .insertInto('journal_tags')
            .values([...tags])
            .onConflict((oc) => oc.columns(['user_id', 'kind', 'name_key']).doNothing())
            .execute();
        return true;
      }),

    listTags(userId: string): Promise<JournalTagsTable[]> {
      return tags(userId).orderBy('name_key').orderBy('id').execute();
    },

    findTag(userId: string, tagId: string): Promise<JournalTagsTable | undefined> {
      return tags(userId).where('id', '=', tagId).executeTakeFirst();
    },

    /** The user's tags among these ids. */
    tagsByIds(userId: string, tagIds: readonly string[]): Promise<JournalTagsTable[]> {
      if (tagIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('journal_tags')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', 'in', [...tagIds])
        .execute();
    },

    /** The user's tag of this kind with this name key, if any. */
    findByName: (userId: string, kind: string, nameKey: string) =>
      db
        .selectFrom('journal_tags')
        .selectAll()
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('name_key', '=', nameKey)
        .executeTakeFirst(),

    async countTags(userId: string): Promise<number> {
      const row = await db
        .selectFrom('journal_tags')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    insertTag: (row: JournalTagsTable) => db.insertInto('journal_tags').values(row).execute(),

    /** True when the user's tag existed and was renamed. */
    async renameTag(userId: string, tagId: string, name: string, nameKey: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('journal_tags')
        .set({ name, name_key: nameKey, updated_at: at })
        .where('user_id', '=', userId)
        .where('id', '=', tagId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the tag and takes it off every trade, in one transaction; true when the user's tag existed. */
    removeTag: (userId: string, tagId: string): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('trade_tags').where('user_id', '=', userId).where('tag_id', '=', tagId).execute();
        const result = await trx
          .deleteFrom('journal_tags')
          .where('user_id', '=', userId)
          .where('id', '=', tagId)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),

    findNote: (userId: string, { accountKey, tradeId }: TradeKey) =>
      db
        .selectFrom('trade_notes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_key', '=', accountKey)
        .where('trade_id', '=', tradeId)
        .executeTakeFirst(),

    /** The notes of these trades (those that have one). */
    async notesOf(userId: string, keys: readonly TradeKey[]) {
      const out = [];
      for (const batch of chunks(keys, BATCH))
        out.push(
          ...(await db
            .selectFrom('trade_notes')
            .selectAll()
            .where('user_id', '=', userId)
            .where((eb) =>
              eb.or(batch.map((k) => eb.and([eb('account_key', '=', k.accountKey), eb('trade_id', '=', k.tradeId)]))),
            )
            .execute()),
        );
      return out;
    },

    /** The tags on these trades, one row per trade and tag, by tag name. */
    async tagsOn(userId: string, keys: readonly TradeKey[]) {
      const out = [];
      for (const batch of chunks(keys, BATCH))
        out.push(
          ...(await db
            .selectFrom('trade_tags')
            .innerJoin('journal_tags', 'journal_tags.id', 'trade_tags.tag_id')
            .select([
              'trade_tags.account_key',
              'trade_tags.trade_id',
              'journal_tags.id',
              'journal_tags.name',
              'journal_tags.kind',
              'journal_tags.name_key',
            ])
            .where('trade_tags.user_id', '=', userId)
            .where('journal_tags.user_id', '=', userId)
            .where((eb) =>
              eb.or(
                batch.map((k) =>
                  eb.and([eb('trade_tags.account_key', '=', k.accountKey), eb('trade_tags.trade_id', '=', k.tradeId)]),
                ),
              ),
            )
            .orderBy('journal_tags.name_key')
            .orderBy('journal_tags.id')
            .execute()),
        );
      return out;
    },

    /**
     * Replaces the trade's note, rating and tags as a whole, in one transaction, with the user's list version
     * (what the trade list shows changed; the Overview's counters move only for tags, by `touched`).
     */
    replaceNote: (
      userId: string,
      { accountKey, tradeId }: TradeKey,
      entry: { note: string; rating: number | null; tagIds: readonly string[] },
      at: string,
    ): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('trade_notes')
          .values({
            user_id: userId,
            account_key: accountKey,
            trade_id: tradeId,
            note: entry.note,
            rating: entry.rating,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) =>
            oc
              .columns(['user_id', 'account_key', 'trade_id'])
              .doUpdateSet({ note: entry.note, rating: entry.rating, updated_at: at }),
          )
          .execute();
        await trx
          .deleteFrom('trade_tags')
          .where('user_id', '=', userId)
          .where('account_key', '=', accountKey)
          .where('trade_id', '=', tradeId)
          .execute();
        if (entry.tagIds.length > 0)
          await trx
            .insertInto('trade_tags')
            .values(
              entry.tagIds.map((tagId) => ({
                user_id: userId,
                account_key: accountKey,
                trade_id: tradeId,
                tag_id: tagId,
                created_at: at,
              })),
            )
            .execute();
        await bumpDataVersion(trx, userId, at, 'list');
      }),

    /** Adds the tags to every trade, in one transaction; the number of tags added (ones already there are kept). */
    addTags: (userId: string, keys: readonly TradeKey[], tagIds: readonly string[], at: string): Promise<number> =>
      db.transaction().execute(async (trx) => {
        const rows = keys.flatMap((k) =>
          tagIds.map((tagId) => ({
            user_id: userId,
            account_key: k.accountKey,
            trade_id: k.tradeId,
            tag_id: tagId,
            created_at: at,
          })),
        );
        let added = 0;
        for (const batch of chunks(rows, BATCH)) {
          const result = await trx
            .insertInto('trade_tags')
            .values(batch)
            .onConflict((oc) => oc.columns(['user_id', 'account_key', 'trade_id', 'tag_id']).doNothing())
            .executeTakeFirst();
          added += Number(result.numInsertedOrUpdatedRows ?? 0);
        }
        return added;
      }),
  };
}
export type JournalRepository = ReturnType<typeof createJournalRepository>;
