import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, sqliteHandleOf, type Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import type { TradeRecord } from './trade-content';
import { PACK_SLICE } from './trade-pack';
import { SQLITE_ROWS_PER_STATEMENT } from './sqlite-trade-writer';
import { createTradeRepository } from './trade.repository';

/*
 * The SQLite bulk path of the trade upsert (a writer thread with its own connection and prepared statements): the
 * same rows and counts as the Kysely path, whole transactions, and the writes are visible to the app's connection.
 */
let dir: string;
let db: Db;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipsense-writer-'));
  db = createDb({ dataDir: dir });
  await migrateToLatest(db);
  // Trades alone: no users or broker accounts rows are needed for what is tested here.
  sqliteHandleOf(db.kysely)!.pragma('foreign_keys = OFF');
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

function record(n: number, change: Partial<TradeRecord> = {}): TradeRecord {
  return {
    trade_id: String(n),
    trade_num: n,
    mode: 'demo',
    instrument: 'EUR_USD',
    price: `1.${String(n).padStart(5, '0')}`,
    initial_units: '1000',
    current_units: '0',
    realized_pl: '-0.1234',
    unrealized_pl: null,
    financing: '0.0012',
    state: 'CLOSED',
    open_time: `2025-10-01T10:${String(n % 60).padStart(2, '0')}:00.000000000Z`,
    close_time: '2025-10-02T10:00:00.000000000Z',
    average_close_price: '1.10001',
    stop_loss_price: n % 2 === 0 ? '1.09' : null,
    take_profit_price: null,
    trailing_stop_distance: null,
    initial_stop_loss_price: null,
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
    ...change,
  };
}

describe('the SQLite trade upsert', () => {
  it('stores whole statements and the remainder, then tells new, changed and unchanged rows apart', async () => {
    const trades = createTradeRepository(db.kysely);
    const count = SQLITE_ROWS_PER_STATEMENT * 2 + 37;
    const records = Array.from({ length: count }, (_, i) => record(i + 1));
    expect(await trades.write('u1', 'A', records, '2025-10-03T00:00:00.000Z', { fresh: true })).toEqual({
      created: count,
      updated: 0,
    });
    const stored = await trades.all('u1');
    expect(stored).toHaveLength(count);
    const third = stored.find((r) => r.trade_id === '3')!;
    expect(third).toMatchObject({ ...record(3), user_id: 'u1', account_key: 'A' });
    expect(Number(third.trade_num)).toBe(3);

    expect(await trades.write('u1', 'A', records, '2025-10-04T00:00:00.000Z')).toEqual({ created: 0, updated: 0 });
    const next = [record(5, { financing: '-0.5' }), record(count + 1), record(7)];
    expect(await trades.write('u1', 'A', next, '2025-10-05T00:00:00.000Z')).toEqual({ created: 1, updated: 1 });
    expect(await trades.find('u1', 'A', '5')).toMatchObject({
      financing: '-0.5',
      created_at: '2025-10-03T00:00:00.000Z',
      updated_at: '2025-10-05T00:00:00.000Z',
    });
    expect(await trades.find('u1', 'A', '7')).toMatchObject({ updated_at: '2025-10-03T00:00:00.000Z' });
    // Another user's or account's rows are other rows.
    expect(await trades.write('u2', 'A', [record(5)], '2025-10-05T00:00:00.000Z')).toEqual({ created: 1, updated: 0 });
    expect(await trades.count('u1')).toBe(count + 1);
  });

  it('moves a large write as packed slices, every value intact, with the statements run alongside', async () => {
    const trades = createTradeRepository(db.kysely);
    const count = PACK_SLICE * 2 + 3;
    const records = Array.from({ length: count }, (_, i) =>
      record(i + 1, i === 4000 ? { symbol: 'GER40 "cash"', lots: '0.01', commission: '-0.0001' } : {}),
    );
    const alongside = db.kysely
      .insertInto('users')
      .values({
        id: 'packed',
        username: 'p',
        username_key: 'p',
        email: 'p@x',
        password_hash: 'x',
        created_at: 'a',
        updated_at: 'a',
      })
      .compile();
    expect(
      await trades.write('u1', 'A', records, '2025-10-03T00:00:00.000Z', { fresh: true, alongside: [alongside] }),
    ).toEqual({
      created: count,
      updated: 0,
    });
    expect(await trades.count('u1')).toBe(count);
    expect(await trades.find('u1', 'A', '4001')).toMatchObject({ ...records[4000], user_id: 'u1' });
    expect(await db.kysely.selectFrom('users').select('id').where('id', '=', 'packed').execute()).toHaveLength(1);
    expect(await trades.write('u1', 'A', records, '2025-10-04T00:00:00.000Z')).toEqual({ created: 0, updated: 0 });
  });

  it('waits for a write transaction open on the app connection instead of writing into it', async () => {
    const trades = createTradeRepository(db.kysely);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written = false;
    const other = db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('trades').where('user_id', '=', 'nobody').execute();
      await held;
      // The writer waits for the write lock; nothing of it lands in (or is rolled back with) this transaction.
      expect(written).toBe(false);
      throw new Error('rolled back');
    });
    const write = trades.write('u1', 'A', [record(1)], '2025-10-03T00:00:00.000Z').then((counts) => {
      written = true;
      return counts;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(other).rejects.toThrow('rolled back');
    expect(await write).toEqual({ created: 1, updated: 0 });
    expect(await trades.count('u1')).toBe(1);
  });
});
