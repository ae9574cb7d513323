import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Mode } from '@pipsense/contract';
import type { BrokerAccountsTable, Database } from '../../db/schema';
import type { AccountIdentity } from './account-key';
import { sameAccountContent, type AccountContent } from './broker-data';

export type SummaryWrite = 'created' | 'updated' | 'unchanged';

export interface TradeCheckpoint {
  throughTransactionId: string | null;
  highId: string;
  at: string;
}

export function createBrokerAccountRepository(db: Kysely<Database>) {
  /** The user's account with this account key. */
  const find = (userId: string, key: string) =>
    db
      .selectFrom('broker_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('account_key', '=', key)
      .executeTakeFirst();

  function scoped(userId: string, mode?: Mode) {
    let query = db.selectFrom('broker_accounts').where('user_id', '=', userId);
    if (mode) query = query.where('mode', '=', mode);
    return query;
  }

  return {
    find,

    /** Stores the latest summary; the version moves only when something OANDA reports changed. */
    async saveSummary(
      userId: string,
      account: AccountIdentity,
      content: AccountContent,
      now: string,
    ): Promise<{ row: BrokerAccountsTable; write: SummaryWrite }> {
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
            trades_high_id: null,
            trades_synced_at: null,
            version: 0,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.columns(['user_id', 'account_key']).doNothing())
          .executeTakeFirst();
        // Another sync of the same account may have inserted it a moment earlier: then this is an update.
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
          return { row: (await find(userId, account.account_key))!, write: 'created' };
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
      return { row: (await find(userId, account.account_key))!, write: changed ? 'updated' : 'unchanged' };
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

    async count(userId: string, mode?: Mode): Promise<number> {
      const row = await scoped(userId, mode)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** One page, newest first. */
    page(userId: string, mode: Mode | undefined, offset: number, limit: number): Promise<BrokerAccountsTable[]> {
      return scoped(userId, mode)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('account_key', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    all(userId: string, mode?: Mode): Promise<BrokerAccountsTable[]> {
      return scoped(userId, mode).selectAll().orderBy('created_at', 'asc').orderBy('account_key', 'asc').execute();
    },
  };
}
export type BrokerAccountRepository = ReturnType<typeof createBrokerAccountRepository>;
