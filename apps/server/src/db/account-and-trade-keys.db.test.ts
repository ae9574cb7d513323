import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/harness';
import { migrateTo } from '../test/migrate-to';
import type { Db } from './client';
import type { BrokerAccountsTable, TradesTable, UsersTable } from './schema';

/*
 * 006-account-and-trade-keys on a database made by 001–005 and holding data: every row carried over with every
 * value as it was, the new keys filled in, and the new constraints in force.
 */
/** The tables 006 changes, as 001–005 left them. */
interface Schema005 {
  users: UsersTable;
  broker_accounts: Omit<
    BrokerAccountsTable,
    | 'account_key'
    | 'platform'
    | 'server'
    | 'login'
    | 'broker'
    | 'leverage'
    | 'utc_offset'
    | 'broker_time'
    | 'transactions_through_id'
  > & {
    oanda_account_id: string;
  };
  trades: Omit<
    TradesTable,
    'account_key' | 'platform' | 'symbol' | 'lots' | 'commission' | 'swap' | 'server_open_time'
  > & {
    oanda_account_id: string;
  };
}

let db: Db;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ db, close } = await createTestDb());
});
afterEach(() => close());

const NOW = '2025-03-01T00:00:00.000Z';
const DEMO = '101-004-1234567-001';
const LIVE = '001-001-7654321-001';

function account(user: string, id: string, mode: string, extra: Partial<Schema005['broker_accounts']> = {}) {
  return {
    id: `${user}-${id}`,
    user_id: user,
    oanda_account_id: id,
    mode,
    alias: 'Primary',
    currency: 'USD',
    balance: '100012.3456789',
    nav: '99999.0001',
    hedging_enabled: 1,
    open_trade_count: 2,
    opened_at: '2024-01-02T03:04:05.123456789Z',
    last_transaction_id: '9007199254740993',
    synced_at: NOW,
    trades_through_transaction_id: '12',
    trades_high_id: '11',
    trades_synced_at: NOW,
    version: 3,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  };
}

function trade(
  user: string,
  accountId: string,
  id: number,
  mode: string,
  extra: {
    state?: string;
    current_units?: string;
    unrealized_pl?: string;
    close_time?: null;
    realized_pl?: string;
  } = {},
) {
  return {
    user_id: user,
    oanda_account_id: accountId,
    trade_id: String(id),
    trade_num: id,
    mode,
    instrument: 'EUR_USD',
    price: '1.0845012345678901234',
    initial_units: '-1000',
    current_units: '0',
    realized_pl: '-0.00010000000000000001',
    unrealized_pl: null,
    financing: '0.1234',
    state: 'CLOSED',
    open_time: '2025-02-01T10:00:00.123456789Z',
    close_time: '2025-02-02T10:00:00.000000001Z',
    average_close_price: '1.08461',
    stop_loss_price: '1.08',
    take_profit_price: null,
    trailing_stop_distance: '0.00500',
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  };
}

describe('006-account-and-trade-keys', () => {
  it('carries every account and trade over unchanged, keyed by platform, server and login', async () => {
    const old = db.kysely as unknown as Kysely<Schema005>;
    await migrateTo(old, '005-trade-query-indexes');
    for (const user of ['u1', 'u2'])
      await old
        .insertInto('users')
        .values({
          id: user,
          username: user,
          username_key: user,
          email: `${user}@example.com`,
          password_hash: 'x',
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    const accounts = [
      account('u1', DEMO, 'demo'),
      account('u1', LIVE, 'live', { alias: null }),
      account('u2', DEMO, 'demo'),
    ];
    const trades = [
      trade('u1', DEMO, 10, 'demo'),
      trade('u1', DEMO, 11, 'demo', { state: 'OPEN', current_units: '-1000', unrealized_pl: '12.5', close_time: null }),
      trade('u1', LIVE, 10, 'live'),
      trade('u2', DEMO, 10, 'demo', { realized_pl: '7' }),
    ];
    await old.insertInto('broker_accounts').values(accounts).execute();
    await old.insertInto('trades').values(trades).execute();
    const before = {
      accounts: await old.selectFrom('broker_accounts').selectAll().orderBy('id').execute(),
      trades: await old
        .selectFrom('trades')
        .selectAll()
        .orderBy('user_id')
        .orderBy('oanda_account_id')
        .orderBy('trade_id')
        .execute(),
    };
    expect(before.trades).toHaveLength(4);

    await migrateTo(db.kysely, '006-account-and-trade-keys');

    const key = (id: string, mode: string) => `oanda:${mode === 'live' ? 'fxtrade' : 'fxpractice'}:${id}`;
    const after = await db.kysely.selectFrom('broker_accounts').selectAll().orderBy('id').execute();
    expect(after).toEqual(
      before.accounts.map(({ oanda_account_id: id, ...rest }) => ({
        ...rest,
        account_key: key(id, rest.mode),
        platform: 'oanda',
        server: rest.mode === 'live' ? 'fxtrade' : 'fxpractice',
        login: id,
      })),
    );
    const afterTrades = await db.kysely.selectFrom('trades').selectAll().execute();
    expect(afterTrades).toHaveLength(4);
    for (const { oanda_account_id: id, ...rest } of before.trades)
      expect(afterTrades).toContainEqual({ ...rest, account_key: key(id, rest.mode) });

    // The new key holds: one row per (user, account key, trade id), and a trade needs its account.
    const stored = afterTrades.find((t) => t.user_id === 'u1' && t.trade_id === '10' && t.mode === 'demo')!;
    const again = { ...stored, trade_num: Number(stored.trade_num) };
    await expect(db.kysely.insertInto('trades').values(again).execute()).rejects.toThrow();
    if (db.dialect === 'sqlite') await sql`PRAGMA foreign_keys = ON`.execute(db.kysely);
    await expect(
      db.kysely
        .insertInto('trades')
        .values({ ...again, account_key: key('101-004-0000000-009', 'demo') })
        .execute(),
    ).rejects.toThrow();
    // The same login on another server is another account.
    await db.kysely
      .insertInto('broker_accounts')
      .values({ ...after[0]!, id: 'other', account_key: 'oanda:elsewhere:' + DEMO, server: 'elsewhere' })
      .execute();
    // Deleting an account still takes its trades along.
    await db.kysely.deleteFrom('broker_accounts').where('id', '=', `u1-${LIVE}`).execute();
    expect(await db.kysely.selectFrom('trades').select('trade_id').where('user_id', '=', 'u1').execute()).toHaveLength(
      2,
    );
  });
});
