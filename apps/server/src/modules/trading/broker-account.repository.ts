import { randomUUID } from 'node:crypto';
import type { CompiledQuery, Kysely, Selectable } from 'kysely';
import { platformByQuery, type Mode, type PlatformQuery } from '@pipsense/contract';
import { bumpDataVersion } from '../../db/data-versions';
import type { BrokerAccountsTable } from '../../db/schema';
import type { AccountIdentity } from './account-key';
import { sameAccountContent, type AccountContent } from './broker-data';
import { sameImportedAccount, type ImportedAccountContent } from './metatrader-store';
import type { TradingDb } from './tables';

export type BrokerAccountRow = Selectable<BrokerAccountsTable>;

/** Which stored accounts a list reads: by mode, by platform (every platform without one). */
export interface AccountFilter {
  mode?: Mode | undefined;
  platform?: PlatformQuery | undefined;
}

export type SummaryWrite = 'created' | 'updated' | 'unchanged';

export interface TradeCheckpoint {
  throughTransactionId: string | null;
  highId: string;
  at: string;
}

export function createBrokerAccountRepository(db: Kysely<TradingDb>) {
  /** The user's account with this account key. */
  const find = (userId: string, key: string) =>
    db
      .selectFrom('broker_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('account_key', '=', key)
      .executeTakeFirst();

  function scoped(userId: string, { mode, platform }: AccountFilter = {}) {
    let query = db.selectFrom('broker_accounts').where('user_id', '=', userId);
    if (mode) query = query.where('mode', '=', mode);
    if (platform) query = query.where('platform', '=', platformByQuery(platform).stored);
    return query;
  }

  return {
    find,

    /**
     * The user's account the API names by `accountId`: its account key, else its login (a login on two servers:
     * the first key in key order answers, as for a trade's journal).
     */
    byApiId: (userId: string, accountId: string) =>
      db
        .selectFrom('broker_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('account_key', '=', accountId), eb('login', '=', accountId)]))
        .orderBy((eb) => eb.case().when('account_key', '=', accountId).then(0).else(1).end())
        .orderBy('account_key')
        .limit(1)
        .executeTakeFirst(),

    /** Stores the latest summary; the version moves only when something OANDA reports changed. */
    async saveSummary(
      userId: string,
      account: AccountIdentity,
      content: AccountContent,
      now: string,
    ): Promise<{ row: BrokerAccountRow; write: SummaryWrite }> {
      const before = await find(userId, account.account_key);
      if (!before) {
        const inserted = await db
          .insertInto('broker_accounts')
          .values({
            id: randomUUID(),
            user_id: userId,
            ...account,
            ...content,
            synced_at: now,
            trades_through_transaction_id: null,
            transactions_through_id: null,
            trades_high_id: null,
            trades_synced_at: null,
            version: 0,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.columns(['user_id', 'account_key']).doNothing())
          .executeTakeFirst();
        // Another sync of the same account may have inserted it a moment earlier: then this is an update.
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
          await bumpDataVersion(db, userId, now);
          return { row: (await find(userId, account.account_key))!, write: 'created' };
        }
      }
      const current = before ?? (await find(userId, account.account_key))!;
      const changed = !sameAccountContent(current, content);
      await db
        .updateTable('broker_accounts')
        .set((eb) =>
          changed
            ? { ...content, synced_at: now, updated_at: now, version: eb('version', '+', 1) }
            : { synced_at: now },
        )
        .where('id', '=', current.id)
        .execute();
      if (changed) await bumpDataVersion(db, userId, now);
      return { row: (await find(userId, account.account_key))!, write: changed ? 'updated' : 'unchanged' };
    },

    /**
     * The statement that stores an imported account's row (run in the import's transaction, trade.repository.ts
     * `alongside`): inserted, or its content replaced with the version moved when anything changed. `synced_at`
     * moves either way: an import is a sync of the account, so the Overview's data version moves too.
     */
    async importStatement(
      userId: string,
      account: AccountIdentity,
      content: ImportedAccountContent,
      now: string,
    ): Promise<CompiledQuery> {
      const before = await find(userId, account.account_key);
      if (!before)
        return db
          .insertInto('broker_accounts')
          .values({
            id: randomUUID(),
            user_id: userId,
            ...account,
            ...content,
            synced_at: now,
            trades_through_transaction_id: null,
            transactions_through_id: null,
            trades_high_id: null,
            trades_synced_at: now,
            version: 0,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) =>
            oc.columns(['user_id', 'account_key']).doUpdateSet((eb) => ({
              ...content,
              synced_at: now,
              trades_synced_at: now,
              updated_at: now,
              version: eb('broker_accounts.version', '+', 1),
            })),
          )
          .compile();
      const changed = !sameImportedAccount(before, content);
      return db
        .updateTable('broker_accounts')
        .set((eb) =>
          changed
            ? { ...content, synced_at: now, trades_synced_at: now, updated_at: now, version: eb('version', '+', 1) }
            : { synced_at: now, trades_synced_at: now },
        )
        .where('id', '=', before.id)
        .compile();
    },

    /** Marks a completed trade sync; the next one only reads what came after. */
    async saveTradeCheckpoint(userId: string, key: string, checkpoint: TradeCheckpoint): Promise<void> {
      await db
        .updateTable('broker_accounts')
        .set({
          trades_through_transaction_id: checkpoint.throughTransactionId,
          trades_high_id: checkpoint.highId,
          trades_synced_at: checkpoint.at,
        })
        .where('user_id', '=', userId)
        .where('account_key', '=', key)
        .execute();
    },

    async count(userId: string, filter: AccountFilter = {}): Promise<number> {
      const row = await scoped(userId, filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** One page, newest first. */
    page(userId: string, filter: AccountFilter, offset: number, limit: number): Promise<BrokerAccountRow[]> {
      return scoped(userId, filter)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('account_key', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    all(userId: string, filter: AccountFilter = {}): Promise<BrokerAccountRow[]> {
      return scoped(userId, filter).selectAll().orderBy('created_at', 'asc').orderBy('account_key', 'asc').execute();
    },
  };
}
export type BrokerAccountRepository = ReturnType<typeof createBrokerAccountRepository>;
