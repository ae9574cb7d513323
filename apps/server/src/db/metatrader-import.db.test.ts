import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/harness';
import { migrateTo } from '../test/migrate-to';
import type { Db } from './client';
import type { Database } from './schema';

/*
 * 012-metatrader-import on a database made by 001–011 and holding OANDA accounts, trades, notes and tags: every row
 * carried over with every value as it was, OANDA's platform on every trade, the new columns empty.
 */

/** The tables as 011 left them. */
interface Schema011 extends Omit<Database, 'broker_accounts' | 'trades'> {
  broker_accounts: Omit<
    Database['broker_accounts'],
    'broker' | 'leverage' | 'utc_offset' | 'broker_time' | 'transactions_through_id'
  >;
  trades: Omit<Database['trades'], 'platform' | 'symbol' | 'lots' | 'commission' | 'swap' | 'server_open_time'>;
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
const key = (login: string, mode: string) => `oanda:${mode === 'live' ? 'fxtrade' : 'fxpractice'}:${login}`;

function account(user: string, login: string, mode: string) {
  return {
    id: `${user}-${login}`,
    user_id: user,
    account_key: key(login, mode),
    platform: 'oanda',
    server: mode === 'live' ? 'fxtrade' : 'fxpractice',
    login,
    mode,
    alias: mode === 'live' ? null : 'Primary',
    currency: 'USD',
    balance: '100012.3456789',
    nav: '99999.0001',
    unrealized_pl: '-0.0001',
    pl: '12.5',
    financing: '-1.25',
    commission: '0',
    margin_used: '20.0000',
    margin_available: '99979.0001',
    position_value: null,
    margin_rate: '0.02',
    margin_closeout_percent: null,
    withdrawal_limit: null,
    open_trade_count: 2,
    open_position_count: 1,
    pending_order_count: 0,
    hedging_enabled: 1,
    opened_at: '2024-01-02T03:04:05.123456789Z',
    last_transaction_id: '9007199254740993',
    synced_at: NOW,
    trades_through_transaction_id: '12',
    trades_high_id: '11',
    trades_synced_at: NOW,
    version: 3,
    created_at: NOW,
    updated_at: NOW,
  };
}

function trade(user: string, login: string, id: number, mode: string, extra: Record<string, unknown> = {}) {
  return {
    user_id: user,
    account_key: key(login, mode),
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
    initial_stop_loss_price: '1.0790',
    mae_price: '1.0850',
    mfe_price: '1.0830',
    excursion_status: 'ready',
    excursion_at: NOW,
    excursion_attempts: 0,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  };
}

describe('012-metatrader-import', () => {
  it('carries every OANDA account, trade, note and tag over unchanged, each trade on platform oanda', async () => {
    const old = db.kysely as unknown as Kysely<Schema011>;
    await migrateTo(old, '011-trade-list-indexes');
    for (const user of ['u1', 'u2'])
      await old
        .insertInto('users')
        .values({
          id: user,
          username: user,
          username_key: user,
          email: `${user}@x.io`,
          password_hash: 'x',
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    await old
      .insertInto('broker_accounts')
      .values([account('u1', DEMO, 'demo'), account('u1', LIVE, 'live'), account('u2', DEMO, 'demo')])
      .execute();
    await old
      .insertInto('trades')
      .values([
        trade('u1', DEMO, 10, 'demo'),
        trade('u1', DEMO, 11, 'demo', {
          state: 'OPEN',
          current_units: '-1000',
          unrealized_pl: '12.5',
          close_time: null,
          excursion_status: null,
          excursion_at: null,
          mae_price: null,
          mfe_price: null,
        }),
        trade('u1', LIVE, 10, 'live', { excursion_status: 'failed', excursion_attempts: 2 }),
        trade('u2', DEMO, 10, 'demo', { realized_pl: '7' }),
      ])
      .execute();
    await old
      .insertInto('journal_tags')
      .values([
        {
          id: 't1',
          user_id: 'u1',
          kind: 'setup',
          name: 'Breakout',
          name_key: 'breakout',
          created_at: NOW,
          updated_at: NOW,
        },
        { id: 't2', user_id: 'u1', kind: 'mistake', name: 'FOMO', name_key: 'fomo', created_at: NOW, updated_at: NOW },
      ])
      .execute();
    await old
      .insertInto('trade_notes')
      .values([
        {
          user_id: 'u1',
          account_key: key(DEMO, 'demo'),
          trade_id: '10',
          note: 'Waited for the retest ✓',
          rating: 4,
          created_at: NOW,
          updated_at: NOW,
        },
        {
          user_id: 'u1',
          account_key: key(LIVE, 'live'),
          trade_id: '10',
          note: '',
          rating: null,
          created_at: NOW,
          updated_at: NOW,
        },
      ])
      .execute();
    await old
      .insertInto('trade_tags')
      .values([
        { user_id: 'u1', account_key: key(DEMO, 'demo'), trade_id: '10', tag_id: 't1', created_at: NOW },
        { user_id: 'u1', account_key: key(DEMO, 'demo'), trade_id: '10', tag_id: 't2', created_at: NOW },
        { user_id: 'u1', account_key: key(LIVE, 'live'), trade_id: '10', tag_id: 't2', created_at: NOW },
      ])
      .execute();

    const snapshot = async (k: Kysely<Schema011> | Kysely<Database>) => {
      const any = k as unknown as Kysely<Database>;
      return {
        accounts: await any.selectFrom('broker_accounts').selectAll().orderBy('id').execute(),
        trades: await any
          .selectFrom('trades')
          .selectAll()
          .orderBy('user_id')
          .orderBy('account_key')
          .orderBy('trade_id')
          .execute(),
        notes: await any.selectFrom('trade_notes').selectAll().orderBy('account_key').execute(),
        tags: await any.selectFrom('trade_tags').selectAll().orderBy('account_key').orderBy('tag_id').execute(),
        journalTags: await any.selectFrom('journal_tags').selectAll().orderBy('id').execute(),
      };
    };
    const before = await snapshot(old);
    expect(before.trades).toHaveLength(4);
    expect(before.notes).toHaveLength(2);
    expect(before.tags).toHaveLength(3);

    await migrateTo(db.kysely, '012-metatrader-import');
    const after = await snapshot(db.kysely);

    expect(after.accounts).toEqual(
      before.accounts.map((a) => ({ ...a, broker: null, leverage: null, utc_offset: null })),
    );
    expect(after.trades).toEqual(
      before.trades.map((t) => ({ ...t, platform: 'oanda', symbol: null, lots: null, commission: null, swap: null })),
    );
    expect(after.notes).toEqual(before.notes);
    expect(after.tags).toEqual(before.tags);
    expect(after.journalTags).toEqual(before.journalTags);

    // A trade inserted without a platform (as OANDA writes from before the import did) is OANDA's.
    await db.kysely
      .insertInto('trades')
      .values({ ...trade('u2', DEMO, 12, 'demo'), trade_num: 12 })
      .execute();
    const inserted = await db.kysely
      .selectFrom('trades')
      .select('platform')
      .where('user_id', '=', 'u2')
      .where('trade_id', '=', '12')
      .executeTakeFirstOrThrow();
    expect(inserted.platform).toBe('oanda');
  });
});
