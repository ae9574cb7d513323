import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/harness';
import { migrateTo } from '../test/migrate-to';
import { createTradeRepository } from '../modules/trading/trade.repository';
import type { TradeRecord } from '../modules/trading/trade-content';
import type { Db } from './client';
import type { Database } from './schema';
import { migrations } from './migrations';
import { insertUser } from '../test/rows';

/*
 * 021-trade-write-indexes on a database made by 001–020 and holding trades of two users: the three indexes no query
 * uses are gone, every other index of `trades` is still there, every row is as it was, and the sync's upsert still
 * works; `down` builds the three again.
 */

let db: Db;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ db, close } = await createTestDb());
});
afterEach(() => close());

/** The names of the indexes on `trades` (the primary key's too), sorted. */
async function tradeIndexes(kysely: Kysely<Database>): Promise<string[]> {
  const rows =
    db.dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = 'trades' and schemaname = current_schema()`.execute(kysely)
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'trades'`.execute(kysely);
  return rows.rows.map((r) => r.name).sort();
}

const NOW = '2025-03-01T00:00:00.000Z';
const DROPPED = ['trades_user_mode_close_time_idx', 'trades_user_mode_time_idx', 'trades_user_mode_updated_idx'];
const KEPT = [
  'trades_excursion_pending_idx',
  'trades_user_close_time_idx',
  'trades_user_instrument_idx',
  'trades_user_open_time_idx',
  'trades_user_platform_open_time_idx',
  'trades_user_realized_pl_idx',
  'trades_user_state_close_time_idx',
  'trades_user_state_realized_pl_idx',
];
const key = (login: string) => `oanda:fxpractice:${login}`;

function record(id: number, extra: Partial<TradeRecord> = {}): TradeRecord {
  return {
    trade_id: String(id),
    trade_num: id,
    mode: 'demo',
    instrument: id % 2 === 0 ? 'EUR_USD' : 'USD_JPY',
    price: '1.0845012345678901234',
    initial_units: id % 3 === 0 ? '-1000' : '2500',
    current_units: '0',
    realized_pl: id % 4 === 0 ? '-12.5' : '0.00010000000000000001',
    unrealized_pl: null,
    financing: '0.1234',
    state: 'CLOSED',
    open_time: `2025-02-${String(1 + (id % 27)).padStart(2, '0')}T10:00:00.123456789Z`,
    close_time: `2025-02-${String(2 + (id % 27)).padStart(2, '0')}T10:00:00.000000001Z`,
    average_close_price: '1.08461',
    stop_loss_price: '1.08',
    take_profit_price: null,
    trailing_stop_distance: null,
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
    initial_stop_loss_price: id % 5 === 0 ? null : '1.0790',
    ...extra,
  };
}

describe('021-trade-write-indexes', () => {
  it('drops the three unused indexes of trades over stored trades, keeps the rest and every row; down restores them', async () => {
    // Written through today's write path (its columns are the latest schema's), then taken back to 020.
    const latest = Object.keys(migrations).at(-1) as keyof typeof migrations;
    await migrateTo(db.kysely, latest);
    const trades = createTradeRepository(db.kysely);
    for (const user of ['u1', 'u2']) {
      await insertUser(db.kysely, user, NOW);
      for (const login of ['101-004-1-001', '101-004-1-002']) {
        await db.kysely
          .insertInto('broker_accounts')
          .values({
            id: `${user}-${login}`,
            user_id: user,
            account_key: key(login),
            platform: 'oanda',
            server: 'fxpractice',
            login,
            mode: 'demo',
            synced_at: NOW,
            version: 0,
            created_at: NOW,
            updated_at: NOW,
          })
          .execute();
        // Through the sync's own write path, as a synced user's rows are.
        const written = await trades.write(
          user,
          key(login),
          Array.from({ length: 120 }, (_, i) => record(i + 1)),
          NOW,
          { fresh: true },
        );
        expect(written).toEqual({ created: 120, updated: 0 });
      }
    }
    await migrateTo(db.kysely, '020-ai-usage');
    expect(await tradeIndexes(db.kysely)).toEqual(expect.arrayContaining([...DROPPED, ...KEPT]));
    const rows = () =>
      db.kysely
        .selectFrom('trades')
        .selectAll()
        .orderBy('user_id')
        .orderBy('account_key')
        .orderBy('trade_num')
        .execute();
    const before = await rows();
    expect(before).toHaveLength(480);

    await migrateTo(db.kysely, '021-trade-write-indexes');
    const indexes = await tradeIndexes(db.kysely);
    for (const name of DROPPED) expect(indexes, `${name} should be dropped`).not.toContain(name);
    expect(indexes).toEqual(expect.arrayContaining(KEPT));
    expect(await rows()).toEqual(before);

    // The sync's upsert after the migrations: one changed, one new, the rest identical (left alone).
    await migrateTo(db.kysely, latest);
    const again = Array.from({ length: 120 }, (_, i) => record(i + 1));
    again[6] = record(7, { realized_pl: '99.5' });
    again.push(record(121));
    expect(await trades.write('u1', key('101-004-1-001'), again, '2025-03-02T00:00:00.000Z')).toEqual({
      created: 1,
      updated: 1,
    });
    const changed = await db.kysely
      .selectFrom('trades')
      .select(['realized_pl', 'updated_at'])
      .where('user_id', '=', 'u1')
      .where('account_key', '=', key('101-004-1-001'))
      .where('trade_id', '=', '7')
      .executeTakeFirstOrThrow();
    expect(changed).toEqual({ realized_pl: '99.5', updated_at: '2025-03-02T00:00:00.000Z' });

    await migrateTo(db.kysely, '020-ai-usage');
    expect(await tradeIndexes(db.kysely)).toEqual(expect.arrayContaining([...DROPPED, ...KEPT]));
  });
});
