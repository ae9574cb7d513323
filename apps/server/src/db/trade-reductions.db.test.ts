import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/harness';
import { migrateTo } from '../test/migrate-to';
import { insertUser } from '../test/rows';
import type { Db } from './client';

/*
 * 033-trade-reductions on a database made by 001–032: an account whose transaction store was read without fills has
 * its checkpoint cleared (its next sync reads its transactions from the first once more) and keeps the rows it has;
 * the new table keys a fill by its id and its trade. Down drops the table.
 */

let db: Db;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ db, close } = await createTestDb());
});
afterEach(() => close());

const NOW = '2026-03-01T00:00:00.000Z';
const KEY = 'oanda:fxpractice:101-004-1-001';

describe('033-trade-reductions', () => {
  it("clears the transaction store's checkpoint, keeps its rows, and keys a fill by its id and trade", async () => {
    await migrateTo(db.kysely, '032-coach');
    await insertUser(db.kysely, 'u1', NOW);
    await db.kysely
      .insertInto('broker_accounts')
      .values({
        id: KEY,
        user_id: 'u1',
        account_key: KEY,
        platform: 'oanda',
        server: 'fxpractice',
        login: '101-004-1-001',
        mode: 'demo',
        synced_at: NOW,
        transactions_through_id: '5400',
        version: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db.kysely
      .insertInto('account_transactions')
      .values({
        user_id: 'u1',
        account_key: KEY,
        transaction_num: 5301,
        type: 'TRANSFER_FUNDS',
        time: NOW,
        amount: '100',
      })
      .execute();

    await migrateTo(db.kysely, '033-trade-reductions');
    const account = await db.kysely
      .selectFrom('broker_accounts')
      .select('transactions_through_id')
      .executeTakeFirstOrThrow();
    expect(account.transactions_through_id).toBeNull();
    expect(await db.kysely.selectFrom('account_transactions').select('transaction_num').execute()).toHaveLength(1);

    // One fill closing two trades is two rows; the same fill and trade again is refused.
    const row = (trade: string) => ({
      user_id: 'u1',
      account_key: KEY,
      transaction_num: 5309,
      trade_id: trade,
      kind: 'close',
      time: NOW,
      units: '-1000',
    });
    await db.kysely
      .insertInto('trade_reductions')
      .values([row('5301'), row('5302')])
      .execute();
    await expect(db.kysely.insertInto('trade_reductions').values(row('5301')).execute()).rejects.toThrow();

    await migrateTo(db.kysely, '032-coach');
    await expect(db.kysely.selectFrom('trade_reductions').selectAll().execute()).rejects.toThrow();
  });
});
